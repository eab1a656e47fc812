import { describe, expect, it } from "vitest";
import { recordedOutput } from "../test-support/recorded-output.js";
import { parseTscOutput } from "./tsc.js";

describe("parseTscOutput (tsc --noEmit --pretty false)", () => {
  it("reads located errors with their file, line and code", () => {
    expect(parseTscOutput(recordedOutput("tsc-errors.txt"))).toEqual([
      {
        file: "src/main.ts",
        line: 3,
        severity: "error",
        code: "TS2322",
        message: "Type 'string' is not assignable to type 'number'.",
      },
      { file: "src/main.ts", line: 4, severity: "error", code: "TS2304", message: "Cannot find name 'missingName'." },
      {
        file: "src/total.ts",
        line: 5,
        severity: "error",
        code: "TS2322",
        message: "Type 'number' is not assignable to type 'string'.",
      },
    ]);
  });

  it("keeps the first line of a message chain and skips its indented continuation", () => {
    const found = parseTscOutput(recordedOutput("tsc-message-chain.txt"));
    expect(found.map((diagnostic) => `${diagnostic.line} ${diagnostic.code}`)).toEqual([
      "2 TS2322",
      "3 TS6133",
      "5 TS2345",
    ]);
    expect(found[2]!.message).toBe(
      "Argument of type '(value: number) => number' is not assignable to parameter of type '(value: string) => void'.",
    );
  });

  it("reads an error about the configuration as a whole, without a file", () => {
    expect(parseTscOutput(recordedOutput("tsc-no-inputs.txt"))).toEqual([
      {
        severity: "error",
        code: "TS18003",
        message:
          "No inputs were found in config file '/home/dev/checker-projects/tsempty/tsconfig.json'. Specified 'include' paths were '[\"src\"]' and 'exclude' paths were '[]'.",
      },
    ]);
  });

  it("maps warnings and suggestions, handles CRLF and paths with parentheses, and ignores other text", () => {
    const output = [
      "src/a (copy).ts(10,2): warning TS6385: 'x' is deprecated.",
      "src/b.ts(1,1): suggestion TS80001: File is a CommonJS module.",
      "src/c.ts(7,3): message TS6500: The expected type comes from here.",
      "warning TS5101: Option 'importsNotUsedAsValues' is deprecated.",
      "src/d.ts(2,4): fatal TS9999: not a category tsc prints.",
      "verbose TS1000: not a category either.",
      "Found 3 errors in 2 files.",
      "  Chained: error TS2322: an indented continuation is not a finding of its own.",
      "src/e.ts(4,1): error TS1005: ';' expected\u2028after this.",
      "",
    ].join("\r\n");
    expect(parseTscOutput(output)).toEqual([
      { file: "src/a (copy).ts", line: 10, severity: "warning", code: "TS6385", message: "'x' is deprecated." },
      { file: "src/b.ts", line: 1, severity: "info", code: "TS80001", message: "File is a CommonJS module." },
      { file: "src/c.ts", line: 7, severity: "info", code: "TS6500", message: "The expected type comes from here." },
      { severity: "warning", code: "TS5101", message: "Option 'importsNotUsedAsValues' is deprecated." },
      { file: "src/e.ts", line: 4, severity: "error", code: "TS1005", message: "';' expected\u2028after this." },
    ]);
  });

  it("finds nothing in clean output", () => {
    expect(parseTscOutput("")).toEqual([]);
  });
});
