import { describe, expect, it } from "vitest";
import type { Capture } from "./search-match.js";
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
    expect(expandTemplate("wrap(\n  $X\n)", { X: capture(source, argument) }, source, matchStart)).toBe(
      "wrap(\n          call(\n              1,\n          )\n        )",
    );
  });

  it("indents a transform's multi-line text (no span in the file) as code starting at column 0, as ast-grep's fixer does", () => {
    const source = "function f() {\n  import {a, b} from './barrel';\n}\n";
    const imports = { text: "import a from './a'\nimport b from './b'", start: -1, end: -1, multi: false };
    const matchStart = source.indexOf("import");
    expect(expandTemplate("$IMPORTS", { IMPORTS: imports }, source, matchStart)).toBe(
      "import a from './a'\n  import b from './b'",
    );
    expect(expandTemplate("{\n  $IMPORTS\n}", { IMPORTS: imports }, source, matchStart)).toBe(
      "{\n    import a from './a'\n    import b from './b'\n  }",
    );
  });

  it("leaves an empty $$$ capture empty and unknown names as written", () => {
    expect(expandTemplate("f($$$A)$B", { A: { text: "", start: -1, end: -1, multi: true } }, "", 0)).toBe("f()$B");
  });

  it("indents a multi-line capture on the template's first line from the matched line's indentation", () => {
    const source = "function f() {\n    foo(a,\n      b);\n}\n";
    const captured = "a,\n      b";
    expect(expandTemplate("baz($$$A)", { A: capture(source, captured, true) }, source, source.indexOf("foo("))).toBe(
      "baz(a,\n      b)",
    );
  });

  it("writes the template's line breaks with a CRLF file's line ending and leaves blank capture lines unindented", () => {
    const source = "def f():\r\n    if x:\r\n        foo(1)\r\n";
    expect(expandTemplate("bar(\n    $A\n)", { A: capture(source, "1") }, source, source.indexOf("foo("))).toBe(
      "bar(\r\n            1\r\n        )",
    );
    const block = "def f():\r\n    g(x,\r\n\r\n      y)\r\n";
    const captured = "x,\r\n\r\n      y";
    expect(expandTemplate("h($$$A)", { A: capture(block, captured, true) }, block, block.indexOf("g("))).toBe(
      "h(x,\r\n\r\n      y)",
    );
  });

  it("drops the template's adjacent `,` for an empty $$$ capture", () => {
    const empty: Capture = { text: "", start: -1, end: -1, multi: true };
    expect(expandTemplate("bar(ctx, $$$A)", { A: empty }, "", 0)).toBe("bar(ctx)");
    expect(expandTemplate("bar($$$A, ctx)", { A: empty }, "", 0)).toBe("bar(ctx)");
    expect(expandTemplate("[$$$A, $$$B]", { A: empty, B: empty }, "", 0)).toBe("[]");
    expect(expandTemplate("bar(\n  ctx,\n  $$$A\n)", { A: empty }, "", 0)).toBe("bar(\n  ctx\n)");
  });

  it("keeps one `,` when a capture's trailing comma meets the template's", () => {
    const source = "foo(a, b,)";
    expect(expandTemplate("foo($$$A, c)", { A: capture(source, "a, b,", true) }, source, 0)).toBe("foo(a, b, c)");
    expect(expandTemplate("foo($$$A)", { A: capture(source, "a, b,", true) }, source, 0)).toBe("foo(a, b,)");
  });

  it("lists the names a template uses", () => {
    expect(templateNames("$A + $$$B + $A + x$C + $_")).toEqual(["A", "B", "_"]);
  });
});
