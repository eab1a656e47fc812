import { DocumentDiagnosticRequest, type Diagnostic } from "vscode-languageserver-protocol";
import type { LanguageServerSession } from "./language-server-session.js";
import type { OpenDocument } from "./open-document.js";
import { beginDocumentPull, reportsAffectedFiles, waitUntilCaughtUp } from "./affected-files-tracking.js";
import { hasCapability } from "./require-capability.js";
import { withDeadline } from "@runbound/runtime-kit";

/** How long a push-only server gets to publish after a sync. */
export const PUSH_CEILING_MS = 2_500;
/** Servers publish in parts: a publish counts once this long passed without another for the file. */
const quietMs = 200;

/** The diagnostics of one synced document and how they were obtained. */
export interface CollectedDiagnostics {
  /** All severities; `undefined` when the server gave none in time (clean, or not checked yet). */
  diagnostics: Diagnostic[] | undefined;
  /** A clause for the answer: "pulled from the server for version 3", … */
  how: string;
}

/**
 * The current diagnostics of an open document, asked for rather than waited for: the protocol's pull
 * diagnostics when the server offers them, else the server table's own way (tsserver's requests).
 * @returns `undefined` when the server offers neither, or gave no full report.
 */
export async function pullDiagnostics(
  session: LanguageServerSession,
  uri: string,
  path: string,
  signal: AbortSignal,
): Promise<Diagnostic[] | undefined> {
  if (hasCapability(session, "diagnosticProvider", DocumentDiagnosticRequest.method)) {
    const pulled = beginDocumentPull(session);
    const report = await session
      .request(
        DocumentDiagnosticRequest.method,
        (connection, token) => connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } }, token),
        signal,
      )
      .finally(pulled);
    if (report?.kind === "full" && Array.isArray(report.items)) return report.items;
  }
  return session.spec.pullDiagnostics?.(session, path, signal);
}

/**
 * The diagnostics for the version of `document` just synced: pulled where the server supports it,
 * else the first publish newer than the sync (matching its version when the server versions them),
 * settled by a quiet period, within `ceilingMs`. Never an older version's set.
 */
export async function collectDiagnostics(
  document: OpenDocument,
  signal: AbortSignal,
  ceilingMs = PUSH_CEILING_MS,
): Promise<CollectedDiagnostics> {
  const session = document.session;
  const pulled = await pullDiagnostics(session, document.uri, document.path, signal);
  if (pulled !== undefined)
    return { diagnostics: pulled, how: `pulled from the server for version ${document.version}` };
  // A server that re-diagnoses dependents by itself may still be at work on a change to another file
  // (a caller's set published before the callee changed is stale): wait until it caught up.
  const caughtUp = reportsAffectedFiles(session)
    ? await withDeadline(signal, ceilingMs, (deadline) =>
        waitUntilCaughtUp(session, new Map([[document.uri, document.version]]), deadline),
      )
    : true;
  const latest = session.published.latest(document.uri);
  // The server already has this text and published for it: nothing new will come, so that set is the answer.
  if (!document.changed && latest !== undefined && caughtUp) {
    return {
      diagnostics: latest.diagnostics,
      how: `published earlier for this text${latest.version === undefined ? "" : ` (version ${latest.version})`}`,
    };
  }
  const set = await withDeadline(signal, ceilingMs, async (ceiling) => {
    // A server that dies will not publish: stop waiting at once, and say why below.
    const stop = new AbortController();
    const onStop = (): void => stop.abort();
    for (const source of [ceiling, session.endedSignal]) {
      if (source.aborted) stop.abort();
      else source.addEventListener("abort", onStop, { once: true });
    }
    try {
      return await session.published.waitFor(
        document.uri,
        document.generationBefore,
        document.version,
        quietMs,
        stop.signal,
      );
    } finally {
      for (const source of [ceiling, session.endedSignal]) source.removeEventListener("abort", onStop);
    }
  });
  if (session.exit !== undefined) throw session.endedError("textDocument/publishDiagnostics");
  // pyright registers pull diagnostics only after its first analysis and then never pushes: pull now.
  const late =
    set === undefined && !signal.aborted
      ? await pullDiagnostics(session, document.uri, document.path, signal)
      : undefined;
  if (late !== undefined) return { diagnostics: late, how: `pulled from the server for version ${document.version}` };
  if (set === undefined)
    return {
      diagnostics: undefined,
      how: `the server published nothing for this file within ${ceilingMs} ms: it may be clean, or not checked yet`,
    };
  return {
    diagnostics: set.diagnostics,
    how: `published by the server${set.version === undefined ? " after this sync" : ` for version ${set.version}`}`,
  };
}
