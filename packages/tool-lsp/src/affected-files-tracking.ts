import type { LanguageServerSession } from "./language-server-session.js";
import { WorkspaceDiagnosticStream } from "./workspace-diagnostic-stream.js";

const streams = new WeakMap<LanguageServerSession, WorkspaceDiagnosticStream>();

/** Right after `initialize` (the supervisor calls it for each session it starts): open the workspace-diagnostics stream of a server that reports affected files on one. */
export function startAffectedFilesTracking(session: LanguageServerSession): void {
  if (session.spec.affectedFiles?.kind !== "workspace-stream") return;
  const stream = new WorkspaceDiagnosticStream(session);
  streams.set(session, stream);
  void stream.run();
}

/** The session's workspace-diagnostics stream, once the server reported on it (and never refused it). */
export function workspaceStreamOf(session: LanguageServerSession): WorkspaceDiagnosticStream | undefined {
  const stream = streams.get(session);
  return stream === undefined || stream.refused || !stream.delivered ? undefined : stream;
}

/**
 * Before a document pull to `session`: for a server with a workspace-diagnostics stream, keeps the
 * pull's own progress on the stream's token from being taken for the end of the server's re-check
 * ({@link WorkspaceDiagnosticStream.beginPull}). @returns the function to call once the pull ended.
 */
export function beginDocumentPull(session: LanguageServerSession): () => void {
  return streams.get(session)?.beginPull() ?? (() => undefined);
}

/** Whether the server reports affected files by itself (so a write waits for it), rather than being asked per file. */
export function reportsAffectedFiles(session: LanguageServerSession): boolean {
  const kind = session.spec.affectedFiles?.kind;
  return kind === "check-progress" || (kind === "workspace-stream" && workspaceStreamOf(session) !== undefined);
}

/**
 * Wait until the server has diagnosed every change it was sent: for `check-progress`, as many
 * diagnosing works began as changes were sent and none is running; for `workspace-stream`, each of
 * `written` (URI → the version sent) was reported at that version or later and the analysis that
 * reported it ended. Servers of other kinds are caught up at once.
 * @returns whether it caught up before `signal` aborted.
 */
export async function waitUntilCaughtUp(
  session: LanguageServerSession,
  written: ReadonlyMap<string, number>,
  signal: AbortSignal,
): Promise<boolean> {
  const kind = session.spec.affectedFiles?.kind;
  if (kind === "check-progress") {
    return session.progress.waitUntil(() => {
      const checks = session.progress.checks();
      return checks.begun >= session.changesSent && !checks.active;
    }, signal);
  }
  const stream = workspaceStreamOf(session);
  if (kind !== "workspace-stream" || stream === undefined) return true;
  return stream.waitUntil(() => {
    if (stream.analysing) return false;
    for (const [uri, version] of written) {
      const latest = session.published.latest(uri);
      if (latest === undefined || (latest.version ?? 0) < version || latest.generation > stream.endGeneration)
        return false;
    }
    return true;
  }, signal);
}

/** Why a server has not caught up with a write yet, as a clause: "`python` is still analyzing …". */
export function whyNotCaughtUp(session: LanguageServerSession): string {
  const server = `\`${session.spec.id}\``;
  const stream = streams.get(session);
  if (stream !== undefined && !stream.workspaceAnalysed) {
    return `${server} is still analyzing the workspace for the first time${stream.lastMessage === undefined ? "" : ` (${stream.lastMessage})`}`;
  }
  return `${server} had not finished diagnosing the files that depend on this write`;
}

/**
 * The publish generation after which another file's report reflects the written text: for the
 * workspace stream, the batch in which the server reported every written file at its new version
 * (it re-checks dependents after the changed file), so a late report from before this write's change
 * is not taken for its effect; `Infinity` while a written file was not reported at its version yet.
 * Servers of other kinds: `after`, the generation before the write.
 */
export function reportsFreshAfter(
  session: LanguageServerSession,
  written: ReadonlyMap<string, number>,
  after: number,
): number {
  const stream = workspaceStreamOf(session);
  if (session.spec.affectedFiles?.kind !== "workspace-stream" || stream === undefined) return after;
  let since = after;
  for (const [uri, version] of written) {
    const latest = session.published.latest(uri);
    const batchStart = stream.batchStartOf(uri);
    if (latest === undefined || (latest.version ?? 0) < version || batchStart === undefined)
      return Number.POSITIVE_INFINITY;
    since = Math.max(since, batchStart);
  }
  return since;
}

/**
 * Whether the server has reported on every file of its workspace at least once: pyright's stream after
 * its first analysis ended; gopls once its initial workspace load (indexing progress) is over. Until
 * then a file it never reported may simply not have been looked at.
 */
export function reportedWholeWorkspace(session: LanguageServerSession): boolean {
  const kind = session.spec.affectedFiles?.kind;
  if (kind === "workspace-stream") return streams.get(session)?.workspaceAnalysed === true;
  return kind === "check-progress" && session.progress.current().length === 0;
}

/** A server checking its workspace reports a file at least this often (a large pydantic module takes pyright 3–4 s). */
const recheckReportGapMs = 5_000;

/**
 * Whether the server is going through its workspace right now (pyright re-checking what an earlier
 * write changed): it checks one file at a time and cannot be interrupted, so a pull for a written
 * file waits until the file it is checking is done — seconds for a large module — and the written
 * file's check gets the longest wait rather than "not checked yet".
 */
export function busyRechecking(session: LanguageServerSession): boolean {
  const stream = workspaceStreamOf(session);
  return stream !== undefined && (stream.analysing || Date.now() - stream.lastReportAt < recheckReportGapMs);
}
