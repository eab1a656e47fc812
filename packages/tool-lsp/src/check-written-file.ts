import { ToolError, type ProgressUpdate } from "@runbound/tool-kit";
import { pathToFileURL } from "node:url";
import { FileChangeType } from "vscode-languageserver-protocol";
import type { AfterWriteBudget } from "./after-write-budget.js";
import { busyRechecking } from "./affected-files-tracking.js";
import { checkDurationsOf, MAX_CHECK_WAIT_MS } from "./check-durations.js";
import { collectDiagnostics } from "./collect-diagnostics.js";
import type { DiagnosticsDelta } from "./diagnostics-ledger.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { openDocument, type OpenDocument } from "./open-document.js";
import { displayPath, isInside, withDeadline } from "@runbound/runtime-kit";

/** What checking one written file gave. */
export type WrittenFileCheck =
  | { kind: "checked"; shown: string; server: string; delta: DiagnosticsDelta; partial: boolean }
  | { kind: "pending"; shown: string; why: string }
  | { kind: "failed"; shown: string; why: string }
  /** No server covers the file, or it was deleted: nothing to report. */
  | { kind: "none" };

/** Tell every running server whose root holds `path` that it changed on disk (didChangeWatchedFiles), closing it if it was deleted. */
export function announceFileChange(supervisor: LspSupervisorInstance, path: string, type: FileChangeType): void {
  const uri = pathToFileURL(path).href;
  for (const session of supervisor.running()) {
    if (!isInside(session.root, path)) continue;
    if (type === FileChangeType.Deleted) session.documents.close(uri);
    if (!session.documents.isOpen(uri)) session.documents.filesChanged([{ uri, type }]);
  }
}

function isWaitEnded(error: unknown): boolean {
  return ToolError.isInstance(error) && (error.code === "timeout" || error.code === "cancelled");
}

/**
 * Sync one written file to its server (starting the server if needed, which goes on in the
 * background past the budget), send didSave, and compare its errors and warnings with the run's
 * ledger. A server that is not ready in time leaves the file pending, to be checked with the next write.
 * `allSynced` resolves once every file of the write is synced: only then are diagnostics asked for,
 * or a file is checked against another's text from before the write (a rename's caller against the
 * old export).
 */
export async function checkWrittenFile(
  supervisor: LspSupervisorInstance,
  workdir: string,
  path: string,
  budget: AfterWriteBudget,
  signal: AbortSignal,
  progress: (update: ProgressUpdate) => void,
  allSynced: () => Promise<void>,
): Promise<WrittenFileCheck> {
  const synced = await syncWrittenFile(supervisor, workdir, path, budget, signal, progress).finally(allSynced);
  if (!("document" in synced)) return synced;
  return diagnoseSyncedFile(supervisor, synced, budget, signal, progress);
}

interface SyncedFile {
  document: OpenDocument;
  shown: string;
  server: string;
  serverName: string;
}

async function syncWrittenFile(
  supervisor: LspSupervisorInstance,
  workdir: string,
  path: string,
  budget: AfterWriteBudget,
  signal: AbortSignal,
  progress: (update: ProgressUpdate) => void,
): Promise<SyncedFile | WrittenFileCheck> {
  const shown = displayPath(workdir, path);
  const route = await supervisor.route(workdir, path);
  if (route.kind !== "ready") {
    announceFileChange(supervisor, path, FileChangeType.Changed);
    return { kind: "none" };
  }
  const cold = !supervisor
    .running()
    .some((session) => session.spec.id === route.spec.id && session.root === route.root);
  const serverName = `\`${route.spec.id}\` for \`${displayPath(workdir, route.root)}\``;
  if (cold)
    progress({ message: `lsp: starting ${route.spec.id} for ${displayPath(workdir, route.root)} to check ${shown}` });
  // A cold server first gets the time to start; the ceiling for the diagnostics runs once every file is synced.
  let document;
  try {
    document = await withDeadline(signal, cold ? budget.coldWaitMs : budget.ceilingMs, (deadline) =>
      openDocument(supervisor, workdir, path, deadline),
    );
  } catch (error) {
    if (ToolError.isInstance(error) && error.code === "not_found") {
      announceFileChange(supervisor, path, FileChangeType.Deleted);
      supervisor.ledger.forget(path);
      return { kind: "none" };
    }
    if (isWaitEnded(error) && !signal.aborted) {
      supervisor.ledger.markPending(path);
      return { kind: "pending", shown, why: `${serverName} is still starting` };
    }
    return { kind: "failed", shown, why: error instanceof Error ? error.message : String(error) };
  }
  document.session.documents.saved(document.uri);
  return { document, shown, server: route.spec.id, serverName };
}

async function diagnoseSyncedFile(
  supervisor: LspSupervisorInstance,
  file: SyncedFile,
  budget: AfterWriteBudget,
  signal: AbortSignal,
  progress: (update: ProgressUpdate) => void,
): Promise<WrittenFileCheck> {
  const { document, shown, serverName } = file;
  const path = document.path;
  const session = document.session;
  const durations = checkDurationsOf(supervisor);
  const busy = busyRechecking(session);
  const ceilingMs = Math.max(durations.waitFor(file.server, path, budget.ceilingMs), busy ? MAX_CHECK_WAIT_MS : 0);
  const loading = session.progress.current().length > 0;
  if (loading) progress({ message: `lsp: ${file.server} is loading the project; waiting for diagnostics of ${shown}` });
  else if (busy)
    progress({
      message: `lsp: ${file.server} is re-checking the workspace after an earlier change; waiting up to ${Math.round(ceilingMs / 1000)} s for the diagnostics of ${shown}`,
    });
  else if (ceilingMs > budget.ceilingMs)
    progress({
      message: `lsp: ${file.server} took long to check ${shown} last time; waiting up to ${Math.round(ceilingMs / 1000)} s for its diagnostics`,
    });
  const started = Date.now();
  try {
    const collected = await withDeadline(signal, ceilingMs, (deadline) =>
      collectDiagnostics(document, deadline, ceilingMs),
    );
    if (collected.diagnostics === undefined) {
      durations.recordUnfinished(file.server, path, ceilingMs);
      supervisor.ledger.markPending(path);
      return {
        kind: "pending",
        shown,
        why: `${serverName} sent no diagnostics within ${ceilingMs} ms${loading ? " (it is still loading the project)" : ""}`,
      };
    }
    durations.record(file.server, path, Date.now() - started);
    return {
      kind: "checked",
      shown,
      server: file.server,
      delta: supervisor.ledger.update(path, collected.diagnostics),
      partial: session.progress.current().length > 0,
    };
  } catch (error) {
    if (isWaitEnded(error) && !signal.aborted) {
      durations.recordUnfinished(file.server, path, ceilingMs);
      supervisor.ledger.markPending(path);
      return {
        kind: "pending",
        shown,
        why: `${serverName} did not answer within ${ceilingMs} ms; the next write waits up to ${Math.round(MAX_CHECK_WAIT_MS / 1000)} s for it`,
      };
    }
    return { kind: "failed", shown, why: error instanceof Error ? error.message : String(error) };
  }
}
