/** The severities a diagnostic row can show. */
export type RowSeverity = "error" | "warning" | "info" | "hint";

/** One diagnostic as a row for the model, from a language server or from a project checker. */
export interface DiagnosticRow {
  /** Workspace-relative path (or absolute when outside the workdir); a project root for a finding about the whole project. */
  path: string;
  /** 1-based line, when the finding has one. */
  line?: number;
  severity: RowSeverity;
  /** Who reported it, e.g. `ts` (shown before the code). */
  source?: string;
  /** The rule or error code, e.g. `TS2322` or `reportAssignmentType`. */
  code?: string;
  /** The message; only its first line is shown, cut to 300 characters. */
  message: string;
}

/** What a row shows of a message: its first line, at most 300 characters. */
export function shownMessage(message: string): string {
  return message.split("\n")[0]!.slice(0, 300);
}

/** `path:line: severity source code: message` — the row format of every diagnostics answer. */
export function formatDiagnosticRow(row: DiagnosticRow): string {
  const line = row.line === undefined ? "" : `:${row.line}`;
  const source = row.source === undefined || row.source.length === 0 ? "" : `${row.source} `;
  const code = row.code === undefined || row.code.length === 0 ? "" : ` ${source}${row.code}`;
  return `${row.path}${line}: ${row.severity}${code}: ${shownMessage(row.message)}`;
}
