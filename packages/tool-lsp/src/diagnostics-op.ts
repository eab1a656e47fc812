import { DocumentDiagnosticRequest, type Diagnostic } from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import type { OpenDocument } from "./open-document.js";
import type { OpAnswer } from "./op-types.js";
import { partialNote } from "./readiness-note.js";
import { hasCapability } from "./require-capability.js";
import { withDeadline } from "./signal-with-deadline.js";

/** How long a push-only server gets to publish after a sync, and the quiet period for servers that publish in parts. */
export const PUSH_CEILING_MS = 2_500;
const quietMs = 200;
/** More than this many in one file is a flood: the rest is summarised (a server that does not understand the file). */
export const FLOOD_LIMIT = 40;
const maxRowsBytes = 12 * 1024;
const severityNames = ["", "error", "warning", "info", "hint"] as const;

function severityOf(diagnostic: Diagnostic): number {
  return typeof diagnostic.severity === "number" && diagnostic.severity >= 1 && diagnostic.severity <= 4 ? diagnostic.severity : 1;
}

function row(shown: string, diagnostic: Diagnostic): string {
  const line = typeof diagnostic.range?.start?.line === "number" ? diagnostic.range.start.line + 1 : "?";
  const source = typeof diagnostic.source === "string" && diagnostic.source.length > 0 ? `${diagnostic.source} ` : "";
  const code = diagnostic.code === undefined ? "" : ` ${source}${String(diagnostic.code)}`;
  const message = String(diagnostic.message ?? "").split("\n")[0]!.slice(0, 300);
  return `${shown}:${line}: ${severityNames[severityOf(diagnostic)]}${code}: ${message}`;
}

async function pull(document: OpenDocument, signal: AbortSignal): Promise<Diagnostic[] | undefined> {
  const session = document.session;
  if (!hasCapability(session, "diagnosticProvider", DocumentDiagnosticRequest.method)) return undefined;
  const report = await session.request(DocumentDiagnosticRequest.method, (connection, token) => connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: document.uri } }, token), signal);
  return report?.kind === "full" && Array.isArray(report.items) ? report.items : undefined;
}

async function collect(document: OpenDocument, signal: AbortSignal): Promise<{ diagnostics: Diagnostic[] | undefined; how: string }> {
  const session = document.session;
  const pulled = await pull(document, signal);
  if (pulled !== undefined) return { diagnostics: pulled, how: `pulled from the server for version ${document.version}` };
  const latest = session.published.latest(document.uri);
  // The server already has this text and published for it: nothing new will come, so that set is the answer.
  if (!document.changed && latest !== undefined) {
    return { diagnostics: latest.diagnostics, how: `published earlier for this text${latest.version === undefined ? "" : ` (version ${latest.version})`}` };
  }
  const set = await withDeadline(signal, PUSH_CEILING_MS, (ceiling) => session.published.waitFor(document.uri, document.generationBefore, document.version, quietMs, ceiling));
  // pyright registers pull diagnostics only after its first analysis and then never pushes: pull now.
  const late = set === undefined ? await pull(document, signal) : undefined;
  if (late !== undefined) return { diagnostics: late, how: `pulled from the server for version ${document.version}` };
  if (set === undefined) return { diagnostics: undefined, how: `the server published nothing for this file within ${PUSH_CEILING_MS} ms: it may be clean, or not checked yet` };
  return { diagnostics: set.diagnostics, how: `published by the server${set.version === undefined ? " after this sync" : ` for version ${set.version}`}` };
}

/** Answer `diagnostics` for one file: errors and warnings, pulled where the server can, else the push for this version. */
export async function diagnosticsOp(document: OpenDocument, signal: AbortSignal): Promise<OpAnswer> {
  const { diagnostics, how } = await collect(document, signal);
  const note = partialNote(document.session);
  if (diagnostics === undefined) return { text: `${note}No diagnostics for ${document.shown} (${how}).`, structured: { op: "diagnostics", complete: false, diagnostics: [] } };
  const shownDiagnostics = diagnostics.filter((diagnostic) => severityOf(diagnostic) <= 2).sort((a, b) => severityOf(a) - severityOf(b) || (a.range?.start?.line ?? 0) - (b.range?.start?.line ?? 0));
  const hidden = diagnostics.length - shownDiagnostics.length;
  const hiddenNote = hidden > 0 ? ` (${hidden} info/hint ${hidden === 1 ? "diagnostic" : "diagnostics"} not shown)` : "";
  if (shownDiagnostics.length === 0) return { text: `${note}No errors or warnings in ${document.shown}${hiddenNote} — ${how}.`, structured: { op: "diagnostics", complete: true, diagnostics: [] } };
  const rows = shownDiagnostics.map((diagnostic) => row(document.shown, diagnostic));
  const bounded = boundedRows({ rows, total: rows.length, cap: FLOOD_LIMIT, maxBytes: maxRowsBytes, noun: ["error or warning", "errors and warnings"], narrow: "this many usually means one root cause (a missing import or dependency, or a file the server does not understand): fix the first ones and ask again" });
  const errors = shownDiagnostics.filter((diagnostic) => severityOf(diagnostic) === 1).length;
  const summary = `${errors} ${errors === 1 ? "error" : "errors"}, ${shownDiagnostics.length - errors} ${shownDiagnostics.length - errors === 1 ? "warning" : "warnings"} in ${document.shown}${hiddenNote} — ${how}.${bounded.shown.length < rows.length ? ` ${bounded.header}` : ""}`;
  return { text: `${note}${summary}\n${bounded.shown.join("\n")}`, structured: { op: "diagnostics", complete: true, diagnostics: bounded.shown } };
}
