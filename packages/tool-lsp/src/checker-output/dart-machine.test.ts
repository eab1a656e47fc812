import { describe, expect, it } from "vitest";
import { parseDartMachineOutput } from "./dart-machine.js";
import { recordedOutput } from "../test-support/recorded-output.js";

// The sample is written from the documented format (no Dart SDK was at hand to record it).
describe("parseDartMachineOutput (dart analyze --format=machine)", () => {
  it("reads each severity, the code, the absolute file and the line; unescapes `\\|` and `\\n`", () => {
    expect(parseDartMachineOutput(recordedOutput("dart-machine.txt"))).toEqual([
      {
        file: "/home/dev/checker-projects/dart/lib/cart.dart",
        line: 4,
        severity: "error",
        code: "INVALID_ASSIGNMENT",
        message: "A value of type 'String' can't be assigned to a variable of type 'int'.",
      },
      {
        file: "/home/dev/checker-projects/dart/lib/cart.dart",
        line: 9,
        severity: "warning",
        code: "DEAD_NULL_AWARE_EXPRESSION",
        message: "The left operand can't be null, so the right operand is never executed.",
      },
      {
        file: "/home/dev/checker-projects/dart/lib/cart.dart",
        line: 12,
        severity: "info",
        code: "PREFER_CONST_CONSTRUCTORS",
        message: "Use 'const' with the constructor to improve performance.",
      },
      {
        file: "/home/dev/checker-projects/dart/lib/odd|name.dart",
        line: 2,
        severity: "error",
        code: "EXPECTED_TOKEN",
        message: "Expected to find ';'.\nTry adding it|here.",
      },
    ]);
  });

  it("unescapes a backslash and a carriage return, keeps a trailing lone backslash", () => {
    expect(parseDartMachineOutput("WARNING|HINT|UNUSED|C:\\\\src\\\\a.dart|3|1|2|one\\rtwo \\\\ three\\")).toEqual([
      { file: "C:\\src\\a.dart", line: 3, severity: "warning", code: "UNUSED", message: "one\rtwo \\ three\\" },
    ]);
  });

  it("skips lines that are not findings: other field counts, unknown severities, a line that is not a number", () => {
    const output = [
      "Analyzing dart...",
      "ERROR|COMPILE_TIME_ERROR|X|/a.dart|1|1|1",
      "ERROR|COMPILE_TIME_ERROR|X|/a.dart|1|1|1|message|extra",
      "FATAL|COMPILE_TIME_ERROR|X|/a.dart|1|1|1|message",
      "ERROR|COMPILE_TIME_ERROR|X|/a.dart|one|1|1|message",
      "ERROR|COMPILE_TIME_ERROR|X|/a.dart|2x|1|1|message",
      "ERROR|COMPILE_TIME_ERROR|X|/a.dart|x2|1|1|message",
      "ERROR|COMPILE_TIME_ERROR|X|/a.dart||1|1|message",
      "",
    ].join("\n");
    expect(parseDartMachineOutput(output)).toEqual([]);
  });
});
