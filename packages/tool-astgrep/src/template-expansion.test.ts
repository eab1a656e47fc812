import { describe, expect, it } from "vitest";
import type { Capture } from "./structural-search.js";
import { expandTemplate, templateNames } from "./template-expansion.js";

function capture(source: string, text: string, multi = false): Capture {
  const start = source.indexOf(text);
  return { text, start, end: start + text.length, multi };
}

describe("expandTemplate", () => {
  it("substitutes captures literally, even with $& and $' in them", () => {
    const source = "f($&x, $'y)";
    expect(expandTemplate("g($$$A)", { A: capture(source, "$&x, $'y", true) }, source, 0)).toBe("g($&x, $'y)");
  });

  it("indents template lines like the matched code, and multi-line captures relative to their new place", () => {
    const source = "class A {\n    method() {\n        call(\n            1,\n        );\n    }\n}\n";
    const matchStart = source.indexOf("call(");
    const argument = "call(\n            1,\n        )";
    expect(expandTemplate("wrap(\n  $X\n)", { X: capture(source, argument) }, source, matchStart)).toBe("wrap(\n          call(\n              1,\n          )\n        )");
  });

  it("leaves an empty $$$ capture empty and unknown names as written", () => {
    expect(expandTemplate("f($$$A)$B", { A: { text: "", start: -1, end: -1, multi: true } }, "", 0)).toBe("f()$B");
  });

  it("lists the names a template uses", () => {
    expect(templateNames("$A + $$$B + $A + x$C + $_")).toEqual(["A", "B", "_"]);
  });
});
