import { describe, expect, it } from "vitest";
import { parsePyrightJson } from "./pyright-json.js";
import { recordedOutput } from "../test-support/recorded-output.js";

describe("parsePyrightJson (pyright --outputjson)", () => {
  it("reads generalDiagnostics with absolute files, 1-based lines and the rule as code", () => {
    expect(parsePyrightJson(recordedOutput("pyright-errors.json"))).toEqual([
      {
        file: "/home/dev/checker-projects/python/src/inventory/stock.py",
        line: 6,
        severity: "error",
        code: "reportAssignmentType",
        message: 'Type "int" is not assignable to declared type "str"\n\u00a0\u00a0"int" is not assignable to "str"',
      },
      {
        file: "/home/dev/checker-projects/python/src/inventory/stock.py",
        line: 7,
        severity: "error",
        code: "reportUndefinedVariable",
        message: '"undefined_name" is not defined',
      },
    ]);
  });

  it("maps warning and information, and a finding without a rule has no code", () => {
    expect(parsePyrightJson(recordedOutput("pyright-warning-and-information.json"))).toEqual([
      {
        file: "/home/dev/checker-projects/pywarn/a.py",
        line: 2,
        severity: "warning",
        code: "reportUnnecessaryTypeIgnoreComment",
        message: 'Unnecessary "# type: ignore" comment',
      },
      {
        file: "/home/dev/checker-projects/pywarn/a.py",
        line: 3,
        severity: "info",
        code: undefined,
        message: 'Type of "x" is "Literal[1]"',
      },
    ]);
  });

  it("an analysis of no files is an empty list, not a failure", () => {
    expect(parsePyrightJson(recordedOutput("pyright-no-files.json"))).toEqual([]);
  });

  it("output that is not pyright's document is unreadable", () => {
    expect(parsePyrightJson("No configuration file found.\n")).toBeUndefined();
    expect(parsePyrightJson(recordedOutput("pyright-errors.json").slice(0, 300))).toBeUndefined();
    expect(parsePyrightJson("null")).toBeUndefined();
    expect(parsePyrightJson('{"summary":{}}')).toBeUndefined();
    expect(parsePyrightJson('{"generalDiagnostics":{}}')).toBeUndefined();
  });

  it("tolerates odd items: no file, no range, a non-numeric line, an unknown severity, a missing message", () => {
    const output = JSON.stringify({
      generalDiagnostics: [
        null,
        "text",
        { severity: "error", message: "Import cycle", file: "" },
        { severity: "warning", message: "No range", file: "/p/a.py", range: { start: { line: "3" } } },
        { severity: "warning", file: "/p/b.py", range: { start: null } },
        { severity: "warning", file: "/p/c.py", range: "1:2", rule: 7 },
        { severity: "error", file: ["/p/d.py"], message: "File not a string" },
        { severity: "unusedCode", message: "Not shown", file: "/p/a.py" },
      ],
    });
    expect(parsePyrightJson(output)).toEqual([
      { file: undefined, line: undefined, severity: "error", code: undefined, message: "Import cycle" },
      { file: "/p/a.py", line: undefined, severity: "warning", code: undefined, message: "No range" },
      { file: "/p/b.py", line: undefined, severity: "warning", code: undefined, message: "" },
      { file: "/p/c.py", line: undefined, severity: "warning", code: undefined, message: "" },
      { file: undefined, line: undefined, severity: "error", code: undefined, message: "File not a string" },
    ]);
  });
});
