import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import {
  byImportance,
  diagnosticCode,
  diagnosticMessage,
  diagnosticRow,
  isErrorOrWarning,
  severityName,
  severityOf,
  toDiagnosticRow,
} from "./format-diagnostic.js";

const diagnostic = (fields: { [Key in keyof Diagnostic]?: unknown } = {}): Diagnostic =>
  ({
    range: { start: { line: 4, character: 2 }, end: { line: 4, character: 6 } },
    message: "Type 'string' is not assignable to type 'number'.",
    ...fields,
  }) as Diagnostic;

describe("severityOf and severityName", () => {
  it("keep the four LSP severities and name them", () => {
    expect(
      [1, 2, 3, 4].map((severity) => severityOf(diagnostic({ severity: severity as Diagnostic["severity"] }))),
    ).toEqual([1, 2, 3, 4]);
    expect(
      [1, 2, 3, 4].map((severity) => severityName(diagnostic({ severity: severity as Diagnostic["severity"] }))),
    ).toEqual(["error", "warning", "info", "hint"]);
  });

  it("count a missing or invalid severity as an error", () => {
    for (const severity of [undefined, 0, 5, 2.5, "2", null]) {
      expect(severityOf(diagnostic({ severity: severity as Diagnostic["severity"] }))).toBe(1);
      expect(severityName(diagnostic({ severity: severity as Diagnostic["severity"] }))).toBe("error");
    }
  });
});

describe("isErrorOrWarning", () => {
  it("is true for errors (also a missing severity) and warnings, false for information and hints", () => {
    expect(
      [1, 2, 3, 4].map((severity) => isErrorOrWarning(diagnostic({ severity: severity as Diagnostic["severity"] }))),
    ).toEqual([true, true, false, false]);
    expect(isErrorOrWarning(diagnostic())).toBe(true);
  });
});

describe("diagnosticCode", () => {
  it("is the source and the code, or the code alone when there is no usable source", () => {
    expect(diagnosticCode(diagnostic({ source: "ts", code: 2322 }))).toBe("ts 2322");
    expect(diagnosticCode(diagnostic({ source: "Pyright", code: "reportAttributeAccessIssue" }))).toBe(
      "Pyright reportAttributeAccessIssue",
    );
    expect(diagnosticCode(diagnostic({ code: 2322 }))).toBe("2322");
    expect(diagnosticCode(diagnostic({ source: "", code: 2322 }))).toBe("2322");
    expect(diagnosticCode(diagnostic({ source: 7, code: 2322 }))).toBe("2322");
  });

  it("keeps a code of 0, and is empty without a code even when there is a source", () => {
    expect(diagnosticCode(diagnostic({ source: "go", code: 0 }))).toBe("go 0");
    expect(diagnosticCode(diagnostic({ source: "ts" }))).toBe("");
    expect(diagnosticCode(diagnostic({ source: "ts", code: null }))).toBe("");
  });
});

describe("diagnosticMessage", () => {
  it("is the first line, cut to 300 characters", () => {
    expect(
      diagnosticMessage(diagnostic({ message: "Argument of type 'x' is not assignable.\n  Type 'x' is missing 'y'." })),
    ).toBe("Argument of type 'x' is not assignable.");
    expect(diagnosticMessage(diagnostic({ message: `${"a".repeat(300)}b` }))).toBe("a".repeat(300));
  });

  it("is empty for a diagnostic without a message", () => {
    expect(diagnosticMessage(diagnostic({ message: undefined }))).toBe("");
  });
});

describe("toDiagnosticRow and diagnosticRow", () => {
  it("turn the 0-based line into a 1-based one and carry source, code and the whole message", () => {
    const full = diagnostic({
      severity: 2,
      source: "ts",
      code: 6133,
      message: "'x' is declared but never read.\nsecond line",
    });
    expect(toDiagnosticRow("src/a.ts", full)).toEqual({
      path: "src/a.ts",
      line: 5,
      severity: "warning",
      source: "ts",
      code: "6133",
      message: "'x' is declared but never read.\nsecond line",
    });
    expect(diagnosticRow("src/a.ts", full)).toBe("src/a.ts:5: warning ts 6133: 'x' is declared but never read.");
  });

  it("show line 1 for line 0, and leave out a line that is missing, negative or not a whole number", () => {
    expect(
      toDiagnosticRow(
        "a.ts",
        diagnostic({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }),
      ).line,
    ).toBe(1);
    for (const range of [
      undefined,
      {},
      { start: {} },
      { start: { line: -1, character: 0 } },
      { start: { line: 1.5, character: 0 } },
      { start: { line: "3", character: 0 } },
    ]) {
      expect(toDiagnosticRow("a.ts", diagnostic({ range: range as Diagnostic["range"] }))).not.toHaveProperty("line");
    }
    expect(
      diagnosticRow("a.ts", diagnostic({ range: undefined as unknown as Diagnostic["range"], message: "m" })),
    ).toBe("a.ts: error: m");
  });

  it("leave out a source that is not a string and a code that is missing, but keep a code of 0", () => {
    const row = toDiagnosticRow("a.ts", diagnostic({ source: 3, code: null, message: "m" }));
    expect(row).toEqual({ path: "a.ts", line: 5, severity: "error", message: "m" });
    expect(toDiagnosticRow("a.ts", diagnostic({ code: 0, message: "m" }))).toEqual({
      path: "a.ts",
      line: 5,
      severity: "error",
      code: "0",
      message: "m",
    });
    expect(toDiagnosticRow("a.ts", diagnostic({ message: undefined }))).toMatchObject({ message: "" });
    expect(diagnosticRow("a.ts", diagnostic({ source: "ts", code: 0, message: "m" }))).toBe("a.ts:5: error ts 0: m");
  });
});

describe("byImportance", () => {
  it("orders errors before warnings, then each by line, a missing line counting as the first", () => {
    const at = (severity: 1 | 2, line: number | undefined): Diagnostic =>
      diagnostic({
        severity,
        message: `${severity}@${line}`,
        range: line === undefined ? undefined : { start: { line, character: 0 }, end: { line, character: 1 } },
      } as Partial<Diagnostic>);
    const sorted = [at(2, 2), at(1, 9), at(2, 1), at(1, 3), at(1, undefined), at(2, undefined)]
      .sort(byImportance)
      .map((item) => item.message);
    expect(sorted).toEqual(["1@undefined", "1@3", "1@9", "2@undefined", "2@1", "2@2"]);
    expect(byImportance(at(1, 3), at(1, 3))).toBe(0);
    expect(byImportance(at(2, 0), at(1, 9))).toBeGreaterThan(0);
  });

  it("reads a missing range, or one without a start, as line 0", () => {
    const noStart = diagnostic({ severity: 1, range: {} as Diagnostic["range"] });
    expect(byImportance(noStart, diagnostic({ severity: 1 }))).toBeLessThan(0);
    expect(byImportance(diagnostic({ severity: 1 }), noStart)).toBeGreaterThan(0);
    const noRange = diagnostic({ severity: 1, range: undefined });
    expect(byImportance(diagnostic({ severity: 1 }), noRange)).toBeGreaterThan(0);
    expect(byImportance(noRange, diagnostic({ severity: 1 }))).toBeLessThan(0);
  });
});
