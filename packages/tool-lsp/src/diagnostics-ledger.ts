import type { Diagnostic } from "vscode-languageserver-protocol";
import { diagnosticCode, diagnosticMessage, isErrorOrWarning, severityName } from "./format-diagnostic.js";

/** What changed in one file since the ledger last saw it. */
export interface DiagnosticsDelta {
  /**
   * Keys that occur more often than before, each with all its current occurrences (which of them is
   * the new one cannot be told apart by position) and how many there were before.
   */
  introduced: Array<{ diagnostics: Diagnostic[]; before: number }>;
  /** Keys that occur less often than before, with how many fewer. */
  resolved: Array<{ key: string; severity: string; code: string; message: string; count: number }>;
  /** True when the ledger had never seen this file, so `introduced` is everything there is now. */
  firstCheck: boolean;
}

/**
 * A message without what only moves: line and column references and quoted positions, so a
 * diagnostic that moved because lines were inserted above it keeps its key.
 */
export function normaliseMessage(message: string): string {
  return message
    .replace(/\b(lines?|column|col)\s+\d+(\s*[-,:]\s*\d+)?/gi, "$1 #")
    .replace(/:\d+:\d+\b/g, ":#:#")
    .replace(/\(\d+,\s*\d+\)/g, "(#,#)");
}

/** The ledger key: (severity, code, message), position deliberately left out. */
export function diagnosticKey(diagnostic: Diagnostic): string {
  return `${severityName(diagnostic)}\u0000${diagnosticCode(diagnostic)}\u0000${normaliseMessage(diagnosticMessage(diagnostic))}`;
}

function countKeys(diagnostics: readonly Diagnostic[]): Map<string, Diagnostic[]> {
  const byKey = new Map<string, Diagnostic[]>();
  for (const diagnostic of diagnostics) {
    const key = diagnosticKey(diagnostic);
    byKey.set(key, [...(byKey.get(key) ?? []), diagnostic]);
  }
  return byKey;
}

/**
 * What the model has been told about each file's errors and warnings in this run, as counts per
 * (severity, code, message). A write is compared with it, so only what the write introduced (a key
 * that occurs more often) and what it resolved (less often) is reported, and a diagnostic that only
 * moved is not reported again.
 */
export class DiagnosticsLedger {
  private readonly byFile = new Map<string, Map<string, number>>();
  private readonly pendingFiles = new Set<string>();

  /** Compare the file's current diagnostics with what the ledger holds, and remember the current ones. */
  update(path: string, diagnostics: readonly Diagnostic[]): DiagnosticsDelta {
    const current = countKeys(diagnostics.filter(isErrorOrWarning));
    const before = this.byFile.get(path);
    this.byFile.set(path, new Map([...current].map(([key, list]) => [key, list.length])));
    this.pendingFiles.delete(path);
    const introduced: DiagnosticsDelta["introduced"] = [];
    for (const [key, list] of current) {
      const was = before?.get(key) ?? 0;
      if (list.length > was) introduced.push({ diagnostics: list, before: was });
    }
    const resolved: DiagnosticsDelta["resolved"] = [];
    for (const [key, count] of before ?? []) {
      const fewer = count - (current.get(key)?.length ?? 0);
      if (fewer <= 0) continue;
      const [severity = "", code = "", message = ""] = key.split("\u0000");
      resolved.push({ key, severity, code, message, count: fewer });
    }
    return { introduced, resolved, firstCheck: before === undefined };
  }

  /** Whether the ledger holds a file (its diagnostics were shown, or taken as the baseline). */
  has(path: string): boolean {
    return this.byFile.has(path);
  }

  /**
   * Take `diagnostics` as what is known of a file before a write, without telling the model: the
   * server's own earlier report of a file the run never looked at, so the write's answer shows only
   * what changed with it. A file the ledger already holds keeps what the model was told.
   */
  baseline(path: string, diagnostics: readonly Diagnostic[]): void {
    if (!this.byFile.has(path)) this.update(path, diagnostics);
  }

  /** The files the ledger holds, in the order it first saw them. */
  files(): string[] {
    return [...this.byFile.keys()];
  }

  /** Forget a file (it was deleted): its diagnostics went with it. */
  forget(path: string): void {
    this.byFile.delete(path);
    this.pendingFiles.delete(path);
  }

  /** Mark a file whose check did not finish in time, to be checked with the next write. */
  markPending(path: string): void {
    this.pendingFiles.add(path);
  }

  /** Files whose check is still owed, oldest first. */
  pending(): string[] {
    return [...this.pendingFiles];
  }
}
