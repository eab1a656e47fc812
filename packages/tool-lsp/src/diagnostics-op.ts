import { boundedRows } from "./bounded-rows.js";
import { collectDiagnostics } from "./collect-diagnostics.js";
import { byImportance, diagnosticRow, isErrorOrWarning, severityOf } from "./format-diagnostic.js";
import type { OpenDocument } from "./open-document.js";
import type { OpAnswer } from "./op-types.js";
import { partialNote } from "./readiness-note.js";

/** More than this many in one file is a flood: the rest is summarised (a server that does not understand the file). */
export const FLOOD_LIMIT = 40;
const maxRowsBytes = 12 * 1024;

/** Answer `diagnostics` for one file: errors and warnings, pulled where the server can, else the push for this version. */
export async function diagnosticsOp(document: OpenDocument, signal: AbortSignal): Promise<OpAnswer> {
  const { diagnostics, how } = await collectDiagnostics(document, signal);
  const note = partialNote(document.session);
  if (diagnostics === undefined)
    return {
      text: `${note}No diagnostics for ${document.shown} (${how}).`,
      structured: { op: "diagnostics", complete: false, diagnostics: [] },
    };
  // What this answer shows becomes the baseline a later write is compared with.
  document.ledger.update(document.path, diagnostics);
  const shownDiagnostics = diagnostics.filter(isErrorOrWarning).sort(byImportance);
  const hidden = diagnostics.length - shownDiagnostics.length;
  const hiddenNote =
    hidden > 0 ? ` (${hidden} info/hint ${hidden === 1 ? "diagnostic" : "diagnostics"} not shown)` : "";
  if (shownDiagnostics.length === 0)
    return {
      text: `${note}No errors or warnings in ${document.shown}${hiddenNote} — ${how}.`,
      structured: { op: "diagnostics", complete: true, diagnostics: [] },
    };
  const rows = shownDiagnostics.map((diagnostic) => diagnosticRow(document.shown, diagnostic));
  const bounded = boundedRows({
    rows,
    total: rows.length,
    cap: FLOOD_LIMIT,
    maxBytes: maxRowsBytes,
    noun: ["error or warning", "errors and warnings"],
    narrow:
      "this many usually means one root cause (a missing import or dependency, or a file the server does not understand): fix the first ones and ask again",
  });
  const errors = shownDiagnostics.filter((diagnostic) => severityOf(diagnostic) === 1).length;
  const summary = `${errors} ${errors === 1 ? "error" : "errors"}, ${shownDiagnostics.length - errors} ${shownDiagnostics.length - errors === 1 ? "warning" : "warnings"} in ${document.shown}${hiddenNote} — ${how}.${bounded.shown.length < rows.length ? ` ${bounded.header}` : ""}`;
  return {
    text: `${note}${summary}\n${bounded.shown.join("\n")}`,
    structured: { op: "diagnostics", complete: true, diagnostics: bounded.shown },
  };
}
