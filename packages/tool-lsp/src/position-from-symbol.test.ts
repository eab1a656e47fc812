import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { positionFromSymbol } from "./position-from-symbol.js";

const text = 'const total = add(1, 2);\nconsole.log(total, total);\r\nconst 名前 = "😀"; greet(名前);\n';

function failure(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("positionFromSymbol", () => {
  it("finds a unique substring on a 1-based line", () => {
    expect(positionFromSymbol({ text, line: 1, symbol: "add", shown: "a.ts" })).toEqual({
      line: 0,
      index: 14,
      lineText: "const total = add(1, 2);",
    });
  });

  it("picks the requested occurrence and strips a CRLF line end", () => {
    expect(positionFromSymbol({ text, line: 2, symbol: "total", occurrence: 2, shown: "a.ts" })).toEqual({
      line: 1,
      index: 19,
      lineText: "console.log(total, total);",
    });
  });

  it("gives UTF-16 indexes after CJK characters and an emoji", () => {
    const position = positionFromSymbol({ text, line: 3, symbol: "greet", shown: "a.ts" });
    expect(position.index).toBe('const 名前 = "😀"; '.length);
    expect(position.index).toBe(17);
  });

  it("refuses an ambiguous substring, quoting the line and the columns", () => {
    const error = failure(() => positionFromSymbol({ text, line: 2, symbol: "total", shown: "a.ts" }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      "`symbol` `total` occurs 2 times on line 2 of `a.ts` (`console.log(total, total);`), at columns 13, 20. Pass `occurrence` (1 to 2) to say which, or a longer substring.",
    );
  });

  it("refuses a substring not on the line, listing the identifiers there", () => {
    const error = failure(() => positionFromSymbol({ text, line: 1, symbol: "sum", shown: "a.ts" }));
    expect(error.code).toBe("not_found");
    expect(error.message).toBe(
      "`symbol` `sum` does not occur on line 1 of `a.ts` (`const total = add(1, 2);`); identifiers on it: `const`, `total`, `add`, `1`, `2`. Check the line number or pick one of these.",
    );
  });

  it("says when the substring is there in other letter case", () => {
    expect(failure(() => positionFromSymbol({ text, line: 1, symbol: "ADD", shown: "a.ts" })).message).toContain(
      "different letter case",
    );
  });

  it("refuses lines outside the file, an empty symbol, and an occurrence out of range", () => {
    expect(failure(() => positionFromSymbol({ text, line: 0, symbol: "add", shown: "a.ts" })).message).toBe(
      "`line` is `0`, but `a.ts` has lines 1 to 4. Give a 1-based line number inside the file.",
    );
    expect(failure(() => positionFromSymbol({ text, line: 5, symbol: "add", shown: "a.ts" })).code).toBe(
      "invalid_input",
    );
    expect(failure(() => positionFromSymbol({ text, line: 1.5, symbol: "add", shown: "a.ts" })).code).toBe(
      "invalid_input",
    );
    expect(failure(() => positionFromSymbol({ text, line: 1, symbol: "", shown: "a.ts" })).message).toContain(
      "`symbol` is empty",
    );
    expect(
      failure(() => positionFromSymbol({ text, line: 2, symbol: "total", occurrence: 3, shown: "a.ts" })).message,
    ).toBe(
      "`occurrence` is `3`, but `total` occurs 2 times on line 2 of `a.ts` (`console.log(total, total);`). Give a number from 1 to 2.",
    );
    expect(
      failure(() => positionFromSymbol({ text, line: 1, symbol: "add", occurrence: 0, shown: "a.ts" })).message,
    ).toContain("occurs 1 time on");
  });

  it("finds a symbol at the start of the line and on the last line, and honours occurrence 1", () => {
    expect(positionFromSymbol({ text, line: 2, symbol: "console", shown: "a.ts" }).index).toBe(0);
    expect(positionFromSymbol({ text, line: 2, symbol: "total", occurrence: 1, shown: "a.ts" }).index).toBe(12);
    expect(positionFromSymbol({ text: "a\nlast", line: 2, symbol: "last", shown: "a.ts" })).toEqual({
      line: 1,
      index: 0,
      lineText: "last",
    });
  });

  it("lists at most 20 identifiers, and quotes a line of exactly 160 characters whole", () => {
    const many = Array.from({ length: 25 }, (_, index) => `v${index}`).join(" ");
    const message = failure(() => positionFromSymbol({ text: many, line: 1, symbol: "nope", shown: "a.ts" })).message;
    expect(message).toContain("`v19`. Check");
    expect(message).not.toContain("`v20`");
    const exact = "y".repeat(160);
    expect(failure(() => positionFromSymbol({ text: exact, line: 1, symbol: "z", shown: "a.ts" })).message).toContain(
      `(\`${exact}\`)`,
    );
  });

  it("quotes at most 160 characters of a long line and says when it holds no identifiers", () => {
    const long = `${"x".repeat(300)}\n   ;;;   \n`;
    expect(failure(() => positionFromSymbol({ text: long, line: 1, symbol: "y", shown: "a.ts" })).message).toContain(
      `(\`${"x".repeat(159)}…\`)`,
    );
    expect(failure(() => positionFromSymbol({ text: long, line: 2, symbol: "y", shown: "a.ts" })).message).toContain(
      "(`;;;`); it holds no identifiers",
    );
  });
});
