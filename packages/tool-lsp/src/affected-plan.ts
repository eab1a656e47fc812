import type { Diagnostic } from "vscode-languageserver-protocol";
import { reportedWholeWorkspace } from "./affected-files-tracking.js";
import type { DiagnosticsDelta } from "./diagnostics-ledger.js";
import type { RankedImporters } from "./importers-first.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import type { PublishedSet } from "./published-diagnostics.js";
import type { Importers } from "./transitive-importers.js";
import { displayPath } from "@runbound/runtime-kit";

/** A file the write did not touch whose diagnostics changed with it (a caller of a changed signature). */
export interface AffectedFile {
  shown: string;
  path: string;
  delta: DiagnosticsDelta;
}

/** What checking the files a write may have affected gave. */
export interface AffectedReport {
  changed: AffectedFile[];
  /** One sentence per server: what else it checked, and what it did not get to. */
  notes: string[];
}

/** What a server had reported at one moment. */
export interface Snapshot {
  generation: number;
  sets: ReadonlyMap<string, PublishedSet>;
  /** Whether the server had reported on the whole workspace by then, so a file it never reported was clean. */
  whole: boolean;
}

/** What one server knew before a write's files were synced to it. */
export interface AffectedPlan {
  session: LanguageServerSession;
  written: string[];
  before: Snapshot;
  importers?: Importers;
  /** The server started with this write: what it knew before is unknown. */
  cold?: boolean;
  /** For a server that re-checks dependents in its own order: the importers asked about one by one after the write. */
  askedFirst?: RankedImporters;
  /** The importers opened in the server for the asks (closed once the write answered). */
  openedForAsks?: string[];
}

/**
 * A snapshot taken when a server did not catch up with a write in time: the next write compares with
 * it, so what the server reports late is still reported once, as promised.
 */
const owedSnapshots = new WeakMap<LanguageServerSession, Snapshot>();

/** Keep `snapshot` for the next write to compare with: the server did not catch up with this one. */
export function oweSnapshot(session: LanguageServerSession, snapshot: Snapshot): void {
  owedSnapshots.set(session, snapshot);
}

/** The server caught up: the next write compares with what it knows then. */
export function settleSnapshot(session: LanguageServerSession): void {
  owedSnapshots.delete(session);
}

/** What the server has reported so far, or the snapshot an earlier write left owed. */
export function snapshotOf(session: LanguageServerSession): Snapshot {
  return (
    owedSnapshots.get(session) ?? {
      generation: session.published.generation(),
      sets: session.published.snapshot(),
      whole: reportedWholeWorkspace(session),
    }
  );
}

/** Compare a file's diagnostics now with what the run was told (or `before`, when it was told nothing): the file, when they changed. */
export function changedFile(
  supervisor: LspSupervisorInstance,
  workdir: string,
  path: string,
  now: readonly Diagnostic[],
  before?: readonly Diagnostic[],
): AffectedFile | undefined {
  if (before !== undefined) supervisor.ledger.baseline(path, before);
  const delta = supervisor.ledger.update(path, now);
  return delta.introduced.length > 0 || delta.resolved.length > 0
    ? { shown: displayPath(workdir, path), path, delta }
    : undefined;
}

/** Up to five paths as answers show them, and how many more. */
export function listed(workdir: string, paths: readonly string[]): string {
  const shown = paths.slice(0, 5).map((path) => `\`${displayPath(workdir, path)}\``);
  return `${shown.join(", ")}${paths.length > shown.length ? ` and ${paths.length - shown.length} more` : ""}`;
}
