import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { diagnosticKey, DiagnosticsLedger, normaliseMessage } from "./diagnostics-ledger.js";

const at = (line: number, message: string, severity: 1 | 2 | 3 | 4 = 1, code: string | number = 2304): Diagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  severity,
  code,
  source: "ts",
  message,
});

describe("DiagnosticsLedger", () => {
  it("a first check introduces everything and says so; the same set again introduces and resolves nothing", () => {
    const ledger = new DiagnosticsLedger();
    const first = ledger.update("/w/a.ts", [at(1, "Cannot find name 'x'.")]);
    expect(first.firstCheck).toBe(true);
    expect(first.introduced).toEqual([{ diagnostics: [at(1, "Cannot find name 'x'.")], before: 0 }]);
    expect(first.resolved).toEqual([]);
    const again = ledger.update("/w/a.ts", [at(9, "Cannot find name 'x'.")]);
    expect(again).toEqual({ introduced: [], resolved: [], firstCheck: false });
  });

  it("counts occurrences: a second real one is introduced, one fewer is resolved", () => {
    const ledger = new DiagnosticsLedger();
    ledger.update("/w/a.ts", [at(1, "Cannot find name 'x'.")]);
    const twice = ledger.update("/w/a.ts", [at(1, "Cannot find name 'x'."), at(5, "Cannot find name 'x'.")]);
    expect(twice.introduced).toEqual([
      { diagnostics: [at(1, "Cannot find name 'x'."), at(5, "Cannot find name 'x'.")], before: 1 },
    ]);
    const once = ledger.update("/w/a.ts", [at(5, "Cannot find name 'x'.")]);
    expect(once.resolved).toEqual([
      {
        key: diagnosticKey(at(0, "Cannot find name 'x'.")),
        severity: "error",
        code: "ts 2304",
        message: "Cannot find name 'x'.",
        count: 1,
      },
    ]);
    expect(once.introduced).toEqual([]);
  });

  it("keys on severity, code and message but not position, and ignores info and hints", () => {
    const ledger = new DiagnosticsLedger();
    ledger.update("/w/a.ts", [at(1, "m"), at(2, "m", 3), at(3, "m", 4)]);
    expect(ledger.update("/w/a.ts", [at(1, "m", 2)]).introduced).toHaveLength(1);
    expect(ledger.update("/w/a.ts", [at(1, "m", 2, 1)]).introduced).toHaveLength(1);
    expect(ledger.update("/w/a.ts", [at(1, "m", 2, 1), at(7, "m", 3)]).introduced).toEqual([]);
  });

  it("files are separate; forgetting a file makes its next check a first one and clears it from pending", () => {
    const ledger = new DiagnosticsLedger();
    ledger.update("/w/a.ts", [at(1, "m")]);
    expect(ledger.update("/w/b.ts", [at(1, "m")]).firstCheck).toBe(true);
    ledger.markPending("/w/a.ts");
    ledger.markPending("/w/c.ts");
    expect(ledger.pending()).toEqual(["/w/a.ts", "/w/c.ts"]);
    ledger.forget("/w/a.ts");
    expect(ledger.pending()).toEqual(["/w/c.ts"]);
    expect(ledger.update("/w/a.ts", [at(1, "m")]).firstCheck).toBe(true);
    ledger.update("/w/c.ts", []);
    expect(ledger.pending()).toEqual([]);
  });

  it("lists the files it holds in the order it first saw them, without the forgotten ones", () => {
    const ledger = new DiagnosticsLedger();
    expect(ledger.files()).toEqual([]);
    ledger.update("/w/b.ts", [at(1, "m")]);
    ledger.update("/w/a.ts", []);
    ledger.update("/w/b.ts", []);
    ledger.update("/w/c.ts", [at(2, "m")]);
    expect(ledger.files()).toEqual(["/w/b.ts", "/w/a.ts", "/w/c.ts"]);
    ledger.forget("/w/a.ts");
    expect(ledger.files()).toEqual(["/w/b.ts", "/w/c.ts"]);
  });
});

describe("normaliseMessage", () => {
  it("drops line and column references, which only move", () => {
    expect(normaliseMessage("'x' was also declared at line 12.")).toBe("'x' was also declared at line #.");
    expect(normaliseMessage("conflicts with src/a.ts:10:4 and (3,7), lines 4-9, column 2")).toBe(
      "conflicts with src/a.ts:#:# and (#,#), lines #, column #",
    );
    expect(normaliseMessage("Expected 2 arguments, but got 1.")).toBe("Expected 2 arguments, but got 1.");
  });

  it("takes any spacing and any number of digits in the references it drops", () => {
    expect(normaliseMessage("unreachable after line  12")).toBe("unreachable after line #");
    expect(normaliseMessage("see lines 4 - 9 and Lines 14-19, col 3: 17")).toBe("see lines # and Lines #, col #");
    expect(normaliseMessage("first defined at src/a.ts:10:14 here")).toBe("first defined at src/a.ts:#:# here");
    expect(normaliseMessage("at (12,3), (3, 7) and (3,17)")).toBe("at (#,#), (#,#) and (#,#)");
  });
});
