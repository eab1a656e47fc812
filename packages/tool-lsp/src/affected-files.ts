import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic } from "vscode-languageserver-protocol";
import {
  reportedWholeWorkspace,
  reportsAffectedFiles,
  reportsFreshAfter,
  waitUntilCaughtUp,
  whyNotCaughtUp,
} from "./affected-files-tracking.js";
import { checkDurationsOf } from "./check-durations.js";
import { pullDiagnostics } from "./collect-diagnostics.js";
import type { DiagnosticsDelta } from "./diagnostics-ledger.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import type { PublishedSet } from "./published-diagnostics.js";
import { eachWithin } from "./each-within.js";
import { transitiveImporters, type Importers } from "./transitive-importers.js";
import { displayPath, isInside, withDeadline } from "@runbound/runtime-kit";

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

interface Snapshot {
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
}

/** Files the run has seen that a server of no known kind is asked about, per write. */
const FALLBACK_PER_WRITE = 5;
/** How long a push server of no known kind gets to republish another open file, and the quiet period that settles it. */
const publishWaitMs = 750;
const quietMs = 100;

/**
 * A snapshot taken when a server did not catch up with a write in time: the next write compares with
 * it, so what the server reports late is still reported once, as promised.
 */
const owedSnapshots = new WeakMap<LanguageServerSession, Snapshot>();

function snapshotOf(session: LanguageServerSession): Snapshot {
  return (
    owedSnapshots.get(session) ?? {
      generation: session.published.generation(),
      sets: session.published.snapshot(),
      whole: reportedWholeWorkspace(session),
    }
  );
}

/** Each running server with the written files it covers. */
function coveringServers(
  supervisor: LspSupervisorInstance,
  written: readonly string[],
): Array<{ session: LanguageServerSession; own: string[] }> {
  return supervisor.running().flatMap((session) => {
    const own = written.filter(
      (path) => isInside(session.root, path) && session.spec.languages[extname(path).toLowerCase()] !== undefined,
    );
    return own.length === 0 ? [] : [{ session, own }];
  });
}

/**
 * Before a write's files are synced: what each running server covering them reported so far, and for
 * a server that is asked per file (tsserver), who imports the written files and what their
 * diagnostics are now — the baseline of files the run never looked at, so the write's answer names
 * only what changed with it.
 */
export async function planAffectedFiles(
  supervisor: LspSupervisorInstance,
  workdir: string,
  written: readonly string[],
  signal: AbortSignal,
): Promise<AffectedPlan[]> {
  const plans: AffectedPlan[] = coveringServers(supervisor, written).map(({ session, own }) => ({
    session,
    written: own,
    before: snapshotOf(session),
  }));
  await Promise.all(
    plans
      .filter((plan) => plan.session.spec.affectedFiles?.kind === "importers")
      .map(async (plan) => {
        plan.importers = await transitiveImporters(plan.session, plan.written, workdir, signal);
        const unseen = plan.importers.files.filter((path) => !supervisor.ledger.has(path));
        await eachWithin(unseen, signal, async (path) => {
          const before = await pullDiagnostics(plan.session, pathToFileURL(path).href, path, signal).catch(
            () => undefined,
          );
          if (before !== undefined && !signal.aborted) supervisor.ledger.baseline(path, before);
        });
      }),
  );
  return plans;
}

/**
 * After the written files were synced: plans for the servers the write started. Their importers are
 * checked without a baseline (each such file is a first check); a server that reports affected files
 * by itself reports every file as it loads, which says nothing of this write, so it is left for the
 * next one.
 */
export async function planStartedServers(
  supervisor: LspSupervisorInstance,
  workdir: string,
  written: readonly string[],
  planned: readonly AffectedPlan[],
  signal: AbortSignal,
): Promise<AffectedPlan[]> {
  const plans: AffectedPlan[] = [];
  for (const { session, own } of coveringServers(supervisor, written)) {
    if (planned.some((plan) => plan.session === session)) continue;
    const plan: AffectedPlan = { session, written: own, before: snapshotOf(session), cold: true };
    if (session.spec.affectedFiles?.kind === "importers")
      plan.importers = await transitiveImporters(session, own, workdir, signal);
    plans.push(plan);
  }
  return plans;
}

function changedFile(
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

function listed(workdir: string, paths: readonly string[]): string {
  const shown = paths.slice(0, 5).map((path) => `\`${displayPath(workdir, path)}\``);
  return `${shown.join(", ")}${paths.length > shown.length ? ` and ${paths.length - shown.length} more` : ""}`;
}

async function checkImporters(
  supervisor: LspSupervisorInstance,
  workdir: string,
  plan: AffectedPlan,
  signal: AbortSignal,
): Promise<AffectedReport> {
  const importers = plan.importers ?? { files: [], complete: false };
  const changed: AffectedFile[] = [];
  const left = await eachWithin(importers.files, signal, async (path) => {
    const now = await pullDiagnostics(plan.session, pathToFileURL(path).href, path, signal).catch(() => undefined);
    if (now === undefined || signal.aborted) return;
    const file = changedFile(supervisor, workdir, path, now);
    if (file !== undefined) changed.push(file);
  });
  for (const path of left) supervisor.ledger.markPending(path);
  const server = `\`${plan.session.spec.id}\``;
  const checked = importers.files.length - left.length;
  const what = plan.written.length === 1 ? `\`${displayPath(workdir, plan.written[0]!)}\`` : "the written files";
  const notes = [
    importers.files.length === 0
      ? `${server} knows no file that imports ${what}${importers.complete ? "" : " (it could not say for every file)"}, so no other file was checked.`
      : `${server} checked ${checked} ${checked === 1 ? "file" : "files"} that import ${what} (directly or through others)${importers.complete ? "" : ` — the nearest ${importers.files.length}; more may depend on it`}: ${changed.length === 0 ? "no new errors or warnings there" : `${changed.length} changed`}.`,
  ];
  if (left.length > 0)
    notes.push(
      `Not checked in time: ${left.length} more ${left.length === 1 ? "file" : "files"} that import it (${listed(workdir, left)}); they are checked with the next write, or ask \`lsp\` \`diagnostics\` for one.`,
    );
  return { changed, notes };
}

async function checkReportedByServer(
  supervisor: LspSupervisorInstance,
  workdir: string,
  plan: AffectedPlan,
  written: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<AffectedReport> {
  const { session } = plan;
  const versions = new Map(
    plan.written.flatMap((path) => {
      const uri = pathToFileURL(path).href;
      const version = session.documents.version(uri);
      return version === undefined ? [] : [[uri, version] as const];
    }),
  );
  const durations = checkDurationsOf(supervisor);
  const key = dependentsKey(plan);
  const waitStarted = Date.now();
  const caughtUp = await waitUntilCaughtUp(session, versions, signal);
  if (caughtUp) durations.record(session.spec.id, key, Date.now() - waitStarted);
  else durations.recordUnfinished(session.spec.id, key, Date.now() - waitStarted);
  const changed: AffectedFile[] = [];
  let rechecked = 0;
  for (const [uri, set] of session.published.changedSince(
    reportsFreshAfter(session, versions, plan.before.generation),
  )) {
    const path = fileURLToPath(uri);
    if (written.has(path) || !isInside(workdir, path)) continue;
    rechecked += 1;
    // The server reports every file it diagnoses: once it went through the whole workspace, one it never reported had nothing to report.
    const file = changedFile(
      supervisor,
      workdir,
      path,
      set.diagnostics,
      plan.before.sets.get(uri)?.diagnostics ?? (plan.before.whole ? [] : undefined),
    );
    if (file !== undefined) changed.push(file);
  }
  const server = `\`${session.spec.id}\``;
  if (!caughtUp) {
    owedSnapshots.set(session, plan.before);
    return {
      changed,
      notes: [
        `Not checked in time: ${whyNotCaughtUp(session)}; what it reports later comes with the next write's answer, or ask \`lsp\` \`diagnostics\` for a file.`,
      ],
    };
  }
  owedSnapshots.delete(session);
  const what =
    session.spec.affectedFiles?.kind === "check-progress"
      ? "the packages that depend on the written files"
      : `${rechecked} other ${rechecked === 1 ? "file" : "files"} that depend on the written files`;
  return {
    changed,
    notes: [
      `${server} re-checked ${what}: ${changed.length === 0 ? "no new errors or warnings there" : `${changed.length} ${changed.length === 1 ? "file" : "files"} changed`}.`,
    ],
  };
}

/** The key under which how long a server took to re-check what depends on these files is kept. */
function dependentsKey(plan: AffectedPlan): string {
  return `dependents of ${plan.written.join("\u0000")}`;
}

/**
 * How long the files that depend on a write may take, for servers that re-check them by themselves:
 * twice what they took after the last write of the same files, up to the most a check gets, so a
 * project whose server needs seconds to re-check the callers is waited for (with progress) rather
 * than answered "not checked in time" write after write. @returns 0 when nothing was measured yet.
 */
export function dependentsWaitMs(supervisor: LspSupervisorInstance, plans: readonly AffectedPlan[]): number {
  const durations = checkDurationsOf(supervisor);
  return Math.max(
    0,
    ...plans
      .filter((plan) => reportsAffectedFiles(plan.session))
      .map((plan) => durations.waitFor(plan.session.spec.id, dependentsKey(plan), 0)),
  );
}

/** A server that neither reports affected files nor says who imports whom: the files the run already saw, open in it. */
async function checkSeenFiles(
  supervisor: LspSupervisorInstance,
  workdir: string,
  plan: AffectedPlan,
  written: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<AffectedReport> {
  const { session } = plan;
  const candidates = supervisor.ledger
    .files()
    .filter(
      (path) =>
        !written.has(path) && isInside(session.root, path) && session.documents.isOpen(pathToFileURL(path).href),
    )
    .slice(0, FALLBACK_PER_WRITE);
  const checked = await Promise.all(
    candidates.map(async (path) => {
      const uri = pathToFileURL(path).href;
      const pulled = await pullDiagnostics(session, uri, path, signal).catch(() => undefined);
      // A push server republishes its open files after a change: wait a little for that.
      const published =
        pulled === undefined
          ? await withDeadline(signal, publishWaitMs, (deadline) =>
              session.published.waitFor(uri, plan.before.generation, 0, quietMs, deadline),
            )
          : undefined;
      const now = pulled ?? published?.diagnostics;
      return now === undefined ? undefined : changedFile(supervisor, workdir, path, now);
    }),
  );
  const changed = checked.filter((file): file is AffectedFile => file !== undefined);
  return {
    changed,
    notes: [
      `\`${session.spec.id}\` cannot say which files a change affects: only ${candidates.length === 0 ? "the written files were" : `the written files and ${candidates.length} open ${candidates.length === 1 ? "file" : "files"} the run looked at were`} checked.`,
    ],
  };
}

/**
 * After a write's files were synced and checked: the other files whose errors and warnings changed
 * with it, by the best means each server has — its importers pulled (tsserver), or every file the
 * server re-diagnosed by itself (gopls, pyright), or else the files the run already looked at — and a
 * sentence per server saying what was checked and what was not.
 */
export async function checkAffectedFiles(
  supervisor: LspSupervisorInstance,
  workdir: string,
  plans: readonly AffectedPlan[],
  written: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<AffectedReport> {
  const reports = await Promise.all(
    plans.map((plan) => {
      if (plan.session.exit !== undefined) return Promise.resolve({ changed: [], notes: [] });
      if (plan.cold === true && plan.importers === undefined) {
        return Promise.resolve({
          changed: [],
          notes: [
            `\`${plan.session.spec.id}\` started with this write and is still loading the project: the files that depend on the written ones are checked from the next write on.`,
          ],
        });
      }
      if (plan.importers !== undefined) return checkImporters(supervisor, workdir, plan, signal);
      if (reportsAffectedFiles(plan.session)) return checkReportedByServer(supervisor, workdir, plan, written, signal);
      return checkSeenFiles(supervisor, workdir, plan, written, signal);
    }),
  );
  return { changed: reports.flatMap((report) => report.changed), notes: reports.flatMap((report) => report.notes) };
}
