import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { reportsAffectedFiles } from "./affected-files-tracking.js";
import {
  changedFile,
  listed,
  snapshotOf,
  type AffectedFile,
  type AffectedPlan,
  type AffectedReport,
} from "./affected-plan.js";
import { pullDiagnostics } from "./collect-diagnostics.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { eachWithin } from "./each-within.js";
import {
  changedNames,
  importersToAskFirst,
  openForAsks,
  rankImporters,
  throughModuleGetattr,
  type ChangedNames,
} from "./importers-first.js";
import { checkReportedByServer } from "./server-reported-dependents.js";
import { transitiveImporters, type Importers } from "./transitive-importers.js";
import { displayPath, isInside, withDeadline } from "@runbound/runtime-kit";

/**
 * How long a write may spend, before its files are synced, asking about importers the run never saw
 * (the baseline their errors are compared with): the first write to a module a whole project imports
 * must not spend its answer's time on files that will mostly be clean.
 */
const baselineBudgetMs = 800;

/** Per server, the importers a write did not get to check in time: the next write checks them first. */
const owedImporters = new WeakMap<LanguageServerSession, string[]>();

function owedImportersOf(session: LanguageServerSession): string[] {
  let owed = owedImporters.get(session);
  if (owed === undefined) {
    owed = [];
    owedImporters.set(session, owed);
  }
  return owed;
}

/** The importers of this write, after those an earlier write owes (checked, and reported if they changed, with this one). */
function withOwedImporters(
  session: LanguageServerSession,
  importers: Importers,
  written: readonly string[],
): Importers {
  const owed = owedImportersOf(session).splice(0);
  if (owed.length === 0) return importers;
  const files = [...new Set([...importers.files, ...owed])].filter((path) => !written.includes(path));
  return { files, complete: importers.complete };
}

/** Files the run has seen that a server of no known kind is asked about, per write. */
const FALLBACK_PER_WRITE = 5;
/** How long a push server of no known kind gets to republish another open file, and the quiet period that settles it. */
const publishWaitMs = 750;
const quietMs = 100;

/** The names the write changed in its files, from the text each server had before it and the text on disk now. */
async function namesChangedBy(session: LanguageServerSession, written: readonly string[]): Promise<ChangedNames> {
  const names = new Set<string>();
  const declared = new Set<string>();
  // Confined only when every written file's change is: a file whose earlier text is unknown may have changed anything.
  let confined = written.length > 0;
  for (const path of written) {
    const before = session.documents.current(pathToFileURL(path).href)?.text;
    const after = await readFile(path, "utf8").catch(() => undefined);
    if (before === undefined || after === undefined) {
      confined = false;
      continue;
    }
    const changed = changedNames(before, after, /\.pyi?$/i.test(path));
    if (changed.confined !== true) confined = false;
    for (const name of changed.names) names.add(name);
    for (const name of changed.declared) declared.add(name);
  }
  return { names, declared, confined };
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
      .filter((plan) => plan.session.spec.affectedFiles?.kind === "workspace-stream")
      .map(async (plan) => {
        const importers = await importersToAskFirst(plan.session, plan.written, plan.before.sets, signal);
        const ranked = await rankImporters(importers, await namesChangedBy(plan.session, plan.written));
        plan.askedFirst = await throughModuleGetattr(plan.session, ranked, importers, signal);
        plan.openedForAsks = await openForAsks(plan.session, plan.askedFirst.ask);
      }),
  );
  await Promise.all(
    plans
      .filter((plan) => plan.session.spec.affectedFiles?.kind === "importers")
      .map(async (plan) => {
        plan.importers = withOwedImporters(
          plan.session,
          await transitiveImporters(plan.session, plan.written, workdir, signal),
          plan.written,
        );
        const unseen = plan.importers.files.filter((path) => !supervisor.ledger.has(path));
        // Nearest first, within a part of the wait: one never asked before is a first check after the write (in a clean project, nothing to show).
        await withDeadline(signal, baselineBudgetMs, (deadline) =>
          eachWithin(unseen, deadline, async (path) => {
            const before = await pullDiagnostics(plan.session, pathToFileURL(path).href, path, deadline).catch(
              () => undefined,
            );
            if (before !== undefined && !deadline.aborted) supervisor.ledger.baseline(path, before);
          }),
        );
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
  owedImportersOf(plan.session).push(...left);
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
      `Not checked in time: ${left.length} more ${left.length === 1 ? "file that imports" : "files that import"} it (${listed(workdir, left)}); they are checked with the next write, or ask \`lsp\` \`diagnostics\` for one.`,
    );
  return { changed, notes };
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
