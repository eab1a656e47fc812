import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic } from "vscode-languageserver-protocol";
import {
  reportsAffectedFiles,
  reportsFreshAfter,
  waitUntilCaughtUp,
  whyNotCaughtUp,
} from "./affected-files-tracking.js";
import {
  changedFile,
  listed,
  oweSnapshot,
  settleSnapshot,
  type AffectedFile,
  type AffectedPlan,
  type AffectedReport,
} from "./affected-plan.js";
import { checkDurationsOf, MAX_CHECK_WAIT_MS } from "./check-durations.js";
import { askImporters } from "./importers-first.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { displayPath, isInside, withDeadline } from "@runbound/runtime-kit";

/** After the importers asked about first answered, how much longer the server's own re-check is waited for. */
const analysisEndGraceMs = 300;

/**
 * For a server that re-checks what depends on a write by itself (gopls, pyright): wait for that
 * re-check — and, for pyright, ask about the written module's importers one by one beside it — then
 * the files whose errors and warnings changed, and what was checked and what was not.
 */
export async function checkReportedByServer(
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
  const ranked = plan.askedFirst ?? { ask: [], leave: [], bytes: new Map<string, number>() };
  // With the importers known, the server's own re-check is waited for only while the ones that use what changed are asked about.
  const asking = ranked.ask.length + ranked.leave.length > 0;
  // The importers are asked about one by one beside the server's own re-check, which is waited for until they answered.
  const stopWaiting = new AbortController();
  const stop = (): void => stopWaiting.abort();
  signal.addEventListener("abort", stop, { once: true });
  const answers = asking
    ? askImporters(session, ranked, signal).finally(stop)
    : Promise.resolve({ answered: new Map<string, Diagnostic[]>(), left: [] });
  let caughtUp = await waitUntilCaughtUp(session, versions, stopWaiting.signal).finally(() =>
    signal.removeEventListener("abort", stop),
  );
  const { answered: asked, left: askedLeft } = await answers;
  // The server's own re-check often ends just after the importers answered: a moment more gives the whole answer.
  if (!caughtUp && asking && !signal.aborted)
    caughtUp = await withDeadline(signal, analysisEndGraceMs, (deadline) =>
      waitUntilCaughtUp(session, versions, deadline),
    );
  const answeredAll = caughtUp || (asking && askedLeft.length === 0);
  if (answeredAll) durations.record(session.spec.id, key, Date.now() - waitStarted);
  else durations.recordUnfinished(session.spec.id, key, Date.now() - waitStarted);

  const changed: AffectedFile[] = [];
  // An importer asked about is checked against the text now; what it had before is what the run was told, or else a first check.
  for (const [path, now] of asked) {
    const file = changedFile(supervisor, workdir, path, now);
    if (file !== undefined) changed.push(file);
  }
  let rechecked = 0;
  for (const [uri, set] of session.published.changedSince(
    reportsFreshAfter(session, versions, plan.before.generation),
  )) {
    const path = fileURLToPath(uri);
    if (written.has(path) || asked.has(path) || !isInside(workdir, path)) continue;
    rechecked += 1;
    // The server reports every file it diagnoses: once it went through the whole workspace, one it never reported had nothing to report.
    // Before that, a file's report may be from binding it, not checking it: what it has now is then a first check.
    const file = changedFile(
      supervisor,
      workdir,
      path,
      set.diagnostics,
      plan.before.whole ? (plan.before.sets.get(uri)?.diagnostics ?? []) : undefined,
    );
    if (file !== undefined) changed.push(file);
  }
  const server = `\`${session.spec.id}\``;
  const summary = (files: readonly AffectedFile[], none: string): string =>
    files.length === 0 ? none : `${files.length} ${files.length === 1 ? "file" : "files"} changed`;
  const notes: string[] = [];
  if (asking) {
    const what = plan.written.length === 1 ? `\`${displayPath(workdir, plan.written[0]!)}\`` : "the written files";
    const askedChanged = changed.filter((file) => asked.has(file.path));
    const which = ranked.leave.length > 0 ? " and use a name it changed" : "";
    if (asked.size > 0)
      notes.push(
        `${server} checked the ${asked.size} ${asked.size === 1 ? "file that imports" : "files that import"} ${what}${which}: ${summary(askedChanged, "no new errors or warnings there")}.`,
      );
    if (askedLeft.length > 0)
      notes.push(
        `Not checked in time: ${askedLeft.length} more ${askedLeft.length === 1 ? "file that imports" : "files that import"} it (${listed(workdir, askedLeft)}); ask \`lsp\` \`diagnostics\` for one.`,
      );
    if (ranked.confined === true)
      notes.push(
        `The ${ranked.leave.length} ${ranked.leave.length === 1 ? "file that imports it" : "files that import it"} cannot see this change (only comments, or the body of a function whose return type is declared, changed): ${server}'s own re-check covers ${ranked.leave.length === 1 ? "it" : "them"}.`,
      );
    else if (ranked.leave.length > 0)
      notes.push(
        `${ranked.ask.length === 0 ? "The" : "The other"} ${ranked.leave.length} ${ranked.leave.length === 1 ? "file that imports it uses" : "files that import it use"} no name the write changed: ${server}'s own re-check covers ${ranked.leave.length === 1 ? "it" : "them"}.`,
      );
  }
  if (!caughtUp) {
    oweSnapshot(session, plan.before);
    notes.push(
      asking
        ? `${server} is still re-checking the files that depend on it indirectly (${rechecked} reported so far); what they report later comes with a later write's answer, or ask \`lsp\` \`diagnostics\` for one.`
        : `Not checked in time: ${whyNotCaughtUp(session)}; what it reports later comes with the next write's answer, or ask \`lsp\` \`diagnostics\` for a file.`,
    );
    return { changed, notes };
  }
  settleSnapshot(session);
  const what =
    session.spec.affectedFiles?.kind === "check-progress"
      ? "the packages that depend on the written files"
      : `${rechecked} other ${rechecked === 1 ? "file" : "files"} that depend on the written files`;
  const streamChanged = changed.filter((file) => !asked.has(file.path));
  notes.push(`${server} re-checked ${what}: ${summary(streamChanged, "no new errors or warnings there")}.`);
  return { changed, notes };
}

/** The key under which how long a server took to re-check what depends on these files is kept. */
function dependentsKey(plan: AffectedPlan): string {
  return `dependents of ${plan.written.join("\u0000")}`;
}

/**
 * How long the files that depend on a write may take, for servers that re-check them by themselves:
 * twice what they took after the last write of the same files, up to the most a check gets, so a
 * project whose server needs seconds to re-check the callers is waited for (with progress) rather
 * than answered "not checked in time" write after write; when importers are asked about (pyright),
 * the most a check gets, since only those that can see the change are asked and the answer comes as
 * soon as they answered. @returns 0 when nothing was measured yet and nothing is asked.
 */
export function dependentsWaitMs(supervisor: LspSupervisorInstance, plans: readonly AffectedPlan[]): number {
  const durations = checkDurationsOf(supervisor);
  return Math.max(
    0,
    ...plans
      .filter((plan) => reportsAffectedFiles(plan.session))
      .map((plan) =>
        Math.max(
          durations.waitFor(plan.session.spec.id, dependentsKey(plan), 0),
          (plan.askedFirst?.ask.length ?? 0) > 0 ? MAX_CHECK_WAIT_MS : 0,
        ),
      ),
  );
}
