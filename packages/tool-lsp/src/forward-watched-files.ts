import type { AsyncSubscription, Event } from "@parcel/watcher";
import { pathToFileURL } from "node:url";
import { DidChangeWatchedFilesNotification, FileChangeType, type FileEvent } from "vscode-languageserver-protocol";
import type { DocumentSync } from "./document-sync.js";

/** What {@link forwardWatchedFiles} needs of a session (a LanguageServerSession has all of it). */
export interface WatchedSession {
  readonly root: string;
  readonly startedAt: number;
  readonly documents: Pick<DocumentSync, "isOpen" | "filesChanged">;
  /** Aborted when the session ends: the watch ends with it. */
  readonly endedSignal: AbortSignal;
  registered(method: string): boolean;
}

/** Where the watch of one session stands. */
export type WatchState = { kind: "starting" | "watching" | "stopped" } | { kind: "failed"; reason: string };

/**
 * Dependencies and version-control data change in bulk (an install, a fetch) and are read by servers
 * through their own means; forwarding them would cost every server a rescan for nothing.
 */
const ignored = ["**/node_modules", "**/.git"];
/** A server registers for watched files right after `initialized`; one that has not by this age watches files itself (tsserver). */
const registrationGraceMs = 30_000;

const typeOf: Record<Event["type"], FileChangeType> = {
  create: FileChangeType.Created,
  update: FileChangeType.Changed,
  delete: FileChangeType.Deleted,
};

interface Watch {
  state: WatchState;
  /** Settles once the watch is established (or failed): events from then on are forwarded. */
  ready: Promise<void>;
  stop(): void;
}

const watches = new WeakMap<WatchedSession, Watch>();

/**
 * @parcel/watcher shares one native backend among its subscriptions and tears it down when the last
 * one goes: a subscribe made while that unsubscribe is still running attaches to the dying backend
 * and never hears anything (6 of 30 tries here). So every subscribe and unsubscribe of this process
 * waits for the one before it.
 */
let watcherOperations: Promise<unknown> = Promise.resolve();
function serially<T>(operation: () => Promise<T>): Promise<T> {
  const result = watcherOperations.then(operation);
  watcherOperations = result.catch(() => undefined);
  return result;
}

function startWatch(session: WatchedSession): Watch {
  let subscription: AsyncSubscription | undefined;
  const onEnd = (): void => watch.stop();
  const watch: Watch = {
    state: { kind: "starting" },
    ready: Promise.resolve(),
    stop: () => {
      session.endedSignal.removeEventListener("abort", onEnd);
      if (watch.state.kind === "starting" || watch.state.kind === "watching") watch.state = { kind: "stopped" };
      const ending = subscription;
      subscription = undefined;
      if (ending !== undefined) void serially(() => ending.unsubscribe()).catch(() => undefined);
    },
  };
  const forward = (error: Error | null, events: Event[]): void => {
    if (error !== null || watch.state.kind !== "watching") return;
    // An open document is the client's text, not the file's: the per-call re-sync (resyncFromDisk) handles it.
    const changes: FileEvent[] = events.flatMap((event) => {
      const uri = pathToFileURL(event.path).href;
      return session.documents.isOpen(uri) ? [] : [{ uri, type: typeOf[event.type] }];
    });
    try {
      session.documents.filesChanged(changes);
    } catch {
      // The connection closes a moment before the session ends (during shutdown), and sending on it
      // then throws at once; from this native callback that would take the whole process down.
    }
  };
  session.endedSignal.addEventListener("abort", onEnd, { once: true });
  // Loaded on first use, not at import: the native module is only needed once a server runs.
  watch.ready = serially(async () =>
    (await import("@parcel/watcher")).subscribe(session.root, forward, { ignore: ignored }),
  ).then(
    (established) => {
      if (watch.state.kind === "starting") {
        subscription = established;
        watch.state = { kind: "watching" };
      } else void serially(() => established.unsubscribe()).catch(() => undefined);
    },
    (error: unknown) => {
      // No watch (the inotify limit reached, a root that vanished): open documents are still re-synced per call.
      watch.state = { kind: "failed", reason: error instanceof Error ? error.message : String(error) };
    },
  );
  return watch;
}

/**
 * Keep a server told about files that change on disk under its root while it does not have them open
 * (`workspace/didChangeWatchedFiles`, for servers that registered it: pyright, gopls), whoever changed
 * them — this run, another process, `git checkout`. One native recursive watch (@parcel/watcher:
 * inotify, FSEvents) per session root, started on the first call that reaches the session and ended
 * with the session; events are forwarded as they arrive. Called on every call: it is a map lookup
 * once the watch runs. A session that has not registered for watched files once it is
 * {@link registrationGraceMs} old gets no watch (or loses it), and gets one if it registers later.
 * @returns the watch's state, and a promise that settles once it is established.
 */
export function forwardWatchedFiles(
  session: WatchedSession,
  now = Date.now(),
): { state: WatchState; ready: Promise<void> } {
  if (session.endedSignal.aborted) return { state: { kind: "stopped" }, ready: Promise.resolve() };
  let watch = watches.get(session);
  const wanted =
    session.registered(DidChangeWatchedFilesNotification.method) || now - session.startedAt < registrationGraceMs;
  if (!wanted) {
    watch?.stop();
    watches.delete(session);
    return { state: { kind: "stopped" }, ready: Promise.resolve() };
  }
  if (watch === undefined || watch.state.kind === "stopped") {
    watch = startWatch(session);
    watches.set(session, watch);
  }
  return { state: watch.state, ready: watch.ready };
}
