import type { Diagnostic } from "vscode-languageserver-protocol";
import { formatDiagnosticRow, shownMessage, type DiagnosticRow, type RowSeverity } from "./diagnostic-row.js";

const severityNames = ["error", "error", "warning", "info", "hint"] as const;

/** LSP severity 1–4 (error, warning, information, hint); a missing or invalid one counts as an error, as the protocol says a client may. */
export function severityOf(diagnostic: Diagnostic): 1 | 2 | 3 | 4 {
  const severity = diagnostic.severity;
  return severity === 1 || severity === 2 || severity === 3 || severity === 4 ? severity : 1;
}

/** `error`, `warning`, `info` or `hint`. */
export function severityName(diagnostic: Diagnostic): RowSeverity {
  return severityNames[severityOf(diagnostic)];
}

/** Errors and warnings: what answers show by default. */
export function isErrorOrWarning(diagnostic: Diagnostic): boolean {
  return severityOf(diagnostic) <= 2;
}

/** `source code` as a diagnostic names itself, e.g. `ts 2322`, or "" when it has no code: the ledger's key part. */
export function diagnosticCode(diagnostic: Diagnostic): string {
  if (diagnostic.code === undefined || diagnostic.code === null) return "";
  const source = typeof diagnostic.source === "string" && diagnostic.source.length > 0 ? `${diagnostic.source} ` : "";
  return `${source}${String(diagnostic.code)}`;
}

/** The first line of the message, at most 300 characters. */
export function diagnosticMessage(diagnostic: Diagnostic): string {
  return shownMessage(String(diagnostic.message ?? ""));
}

/** A server's diagnostic as the row every diagnostics answer shows. */
export function toDiagnosticRow(shown: string, diagnostic: Diagnostic): DiagnosticRow {
  const line = diagnostic.range?.start?.line;
  return {
    path: shown,
    ...(typeof line === "number" && Number.isInteger(line) && line >= 0 ? { line: line + 1 } : {}),
    severity: severityName(diagnostic),
    ...(typeof diagnostic.source === "string" ? { source: diagnostic.source } : {}),
    ...(diagnostic.code === undefined || diagnostic.code === null ? {} : { code: String(diagnostic.code) }),
    message: String(diagnostic.message ?? ""),
  };
}

/** `path:line: severity source code: message`. */
export function diagnosticRow(shown: string, diagnostic: Diagnostic): string {
  return formatDiagnosticRow(toDiagnosticRow(shown, diagnostic));
}

/** Errors first, then warnings, each by line. */
export function byImportance(a: Diagnostic, b: Diagnostic): number {
  return severityOf(a) - severityOf(b) || (a.range?.start?.line ?? 0) - (b.range?.start?.line ?? 0);
}
