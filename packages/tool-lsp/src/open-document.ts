import { ToolError } from "@runbound/tool-kit";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import type { DiagnosticsLedger } from "./diagnostics-ledger.js";
import { readDiskStamp, sameStamp, type DiskStamp } from "./disk-stamp.js";
import { forwardWatchedFiles } from "./forward-watched-files.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { maxDocumentBytes, resyncFromDisk } from "./resync-from-disk.js";
import { displayPath, readFileInWorkdir, resolveInWorkdir, withDeadline } from "@runbound/runtime-kit";

/** A file the server now has, as the tool read it. */
export interface OpenDocument {
  /** Absolute, symlink-free path inside the workdir. */
  path: string;
  /** The path as answers show it. */
  shown: string;
  /** The file's text. */
  text: string;
  /** The server for it. */
  session: LanguageServerSession;
  /** The document URI and the version the server has. */
  uri: string;
  version: number;
  /** Whether this call sent the text (didOpen or didChange); false when the server already had it. */
  changed: boolean;
  /** The server's publish generation before this sync, to wait for diagnostics newer than it. */
  generationBefore: number;
  /** The run's diagnostics ledger: what answers have shown of this file's diagnostics. */
  ledger: DiagnosticsLedger;
}

/** Options of {@link openDocument}. */
export interface OpenOptions {
  /**
   * Look at the text before any server starts, and throw to refuse it: a `line` + `symbol` that is not
   * in the file is answered at once instead of after a cold start of many seconds.
   */
  check?: (text: string, shown: string) => void;
}

/** A server this young that is sent its first file may be about to load the project. */
const warmUpAgeMs = 10_000;

/**
 * Right after a server started, the first file it is sent makes it load the project (tsserver) and
 * answers given meanwhile come from a syntax-only fallback. Give that loading a bounded time to
 * finish, so a cold call answers fully when it can; past the budget the answer says it may be partial.
 */
async function warmUp(session: LanguageServerSession, signal: AbortSignal): Promise<void> {
  const loading = session.spec.projectLoading;
  if (loading === undefined || Date.now() - session.startedAt > warmUpAgeMs) return;
  const started = await withDeadline(signal, loading.beginsWithinMs, (deadline) =>
    session.progress.waitUntil(() => session.progress.current().length > 0, deadline),
  );
  if (started)
    await withDeadline(signal, loading.budgetMs, (deadline) =>
      session.progress.waitUntil(() => session.progress.current().length === 0, deadline),
    );
}

/**
 * Bring a server's view in step with the disk before it answers: re-sync the documents it has open
 * (all but `except`, which the caller syncs itself) and keep its watch of the others running.
 */
export async function syncWithDisk(session: LanguageServerSession, workdir: string, except?: string): Promise<void> {
  forwardWatchedFiles(session);
  await resyncFromDisk(session.documents, workdir, except);
}

/**
 * The text a running server has of the file, when the file still has the stamp it had when that text
 * was read: a warm call on an unchanged file reads nothing.
 */
function heldText(supervisor: LspSupervisorInstance, uri: string, stamp: DiskStamp): string | undefined {
  for (const session of supervisor.running()) {
    const held = session.documents.current(uri);
    if (held !== undefined && sameStamp(held.stamp, stamp)) return held.text;
  }
  return undefined;
}

async function readText(workdir: string, path: string, file: string, shown: string): Promise<string> {
  const bytes = await readFileInWorkdir(workdir, path, { maxBytes: maxDocumentBytes, shown });
  if (bytes === null) {
    throw new ToolError({
      code: "not_found",
      message: `File \`${file}\` does not exist in the working directory. Give the path of an existing source file, relative to the working directory.`,
    });
  }
  return bytes.toString("utf8");
}

/**
 * Confine `file` to the workdir, read it through tool-kit (no symlink escape, regular files only),
 * start or reuse its server, bring every other document the server has open back in step with the
 * disk (and its watch of the files it does not have open), and sync the text to it (didOpen, or
 * didChange when it changed on disk).
 */
export async function openDocument(
  supervisor: LspSupervisorInstance,
  workdir: string,
  file: string,
  signal: AbortSignal,
  options: OpenOptions = {},
): Promise<OpenDocument> {
  const path = await resolveInWorkdir(workdir, file);
  const shown = displayPath(workdir, path);
  // Before the read: a change after it makes the stamp differ, so the next call reads the file again.
  const stamp = await readDiskStamp(path);
  const text =
    (stamp === null ? undefined : heldText(supervisor, pathToFileURL(path).href, stamp)) ??
    (await readText(workdir, path, file, shown));
  options.check?.(text, shown);
  const session = await supervisor.sessionFor(workdir, path, signal);
  await syncWithDisk(session, workdir, pathToFileURL(path).href);
  const generationBefore = session.published.generation();
  const languageId = session.spec.languages[extname(path).toLowerCase()] ?? session.spec.id;
  const synced = session.documents.sync(path, text, languageId, stamp ?? undefined);
  // A file a call is about stays open for the calls after it, also when a question had borrowed it.
  session.documents.keepOpen(synced.uri);
  // Only the first document makes the server load the project; later ones must not wait for a load that already happened.
  if (synced.changed && synced.version === 1 && session.documents.openCount === 1) await warmUp(session, signal);
  return {
    path,
    shown,
    text,
    session,
    uri: synced.uri,
    version: synced.version,
    changed: synced.changed,
    generationBefore,
    ledger: supervisor.ledger,
  };
}
