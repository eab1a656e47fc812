import { type ProgressUpdate, type ToolContent } from "@runbound/tool-kit";
import { FileChangeType } from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import { checkAffectedFiles, planAffectedFiles, planStartedServers } from "./affected-files.js";
import type { AffectedFile } from "./affected-plan.js";
import { dependentsWaitMs } from "./server-reported-dependents.js";
import { closeOpenedForAsks } from "./importers-first.js";
import type { AfterWriteBudget } from "./after-write-budget.js";
import { announceFileChange, checkWrittenFile, type WrittenFileCheck } from "./check-written-file.js";
import type { DiagnosticsDelta } from "./diagnostics-ledger.js";
import { FLOOD_LIMIT } from "./diagnostics-op.js";
import { byImportance, diagnosticRow, severityOf } from "./format-diagnostic.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { displayPath, withDeadline } from "@runbound/runtime-kit";

/** Files checked per write; a write of more (a large patch, a rename) names the rest. */
export const CHECKED_PER_WRITE = 10;
const maxAnswerBytes = 8 * 1024;
/** The least time the other files get to be checked, even after a slow check of the written ones. */
const affectedMinimumMs = 1_500;
/** Other files whose changes are shown in full; the rest are named. */
export const AFFECTED_SHOWN = 10;
/** In a flood, the first few rows are what is shown. */
const floodRows = 3;

/** A function that resolves, for each of `count` callers, once all of them called it. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    arrived += 1;
    if (arrived >= count) release();
    return all;
  };
}

function counted(errors: number, warnings: number): string {
  const parts = [];
  if (errors > 0) parts.push(`${errors} ${errors === 1 ? "error" : "errors"}`);
  if (warnings > 0) parts.push(`${warnings} ${warnings === 1 ? "warning" : "warnings"}`);
  return parts.join(" and ");
}

/** The lines for one file's delta; `partial` follows the file's name ("", or why the answer may be partial). */
function deltaLines(shown: string, delta: DiagnosticsDelta, partial: string, quietWhenUnchanged: boolean): string[] {
  const lines: string[] = [];
  const introduced = delta.introduced
    .flatMap((group) =>
      group.diagnostics.map((diagnostic) => ({ diagnostic, before: group.before, now: group.diagnostics.length })),
    )
    .sort((a, b) => byImportance(a.diagnostic, b.diagnostic));
  if (introduced.length > 0) {
    const errors = introduced.filter((item) => severityOf(item.diagnostic) === 1).length;
    const what = delta.firstCheck
      ? `${counted(errors, introduced.length - errors)} (the first check of this file in this run, so some may predate this write)`
      : `${counted(errors, introduced.length - errors)} introduced by this write so far`;
    const flood = introduced.length > FLOOD_LIMIT;
    lines.push(
      `${shown}: ${what}${partial}${flood ? ` — this many usually means one root cause (a missing import, or a file the server does not understand); the first ${floodRows}:` : ":"}`,
    );
    for (const item of flood ? introduced.slice(0, floodRows) : introduced) {
      lines.push(
        `  ${diagnosticRow(shown, item.diagnostic)}${item.before > 0 ? ` (now ${item.now}, was ${item.before})` : ""}`,
      );
    }
  }
  if (delta.resolved.length > 0) {
    const total = delta.resolved.reduce((sum, item) => sum + item.count, 0);
    lines.push(`${shown}: resolved ${total} ${total === 1 ? "diagnostic" : "diagnostics"}${partial}:`);
    for (const item of delta.resolved)
      lines.push(
        `  ${item.severity}${item.code === "" ? "" : ` ${item.code}`}: ${item.message}${item.count > 1 ? ` (×${item.count})` : ""}`,
      );
  }
  if (lines.length === 0 && !quietWhenUnchanged) lines.push(`${shown}: no new errors or warnings${partial}.`);
  return lines;
}

function checkedLines(check: Extract<WrittenFileCheck, { kind: "checked" }>): string[] {
  return deltaLines(
    check.shown,
    check.delta,
    check.partial ? ` (\`${check.server}\` is still indexing, so this may be partial)` : "",
    false,
  );
}

function affectedSummary(file: AffectedFile): string {
  const introduced = file.delta.introduced.reduce((sum, group) => sum + group.diagnostics.length - group.before, 0);
  const resolved = file.delta.resolved.reduce((sum, item) => sum + item.count, 0);
  return `\`${file.shown}\` (${[introduced > 0 ? `${introduced} new` : "", resolved > 0 ? `${resolved} resolved` : ""].filter(Boolean).join(", ")})`;
}

/** Files with new errors first, then new warnings, then only resolutions. */
function byWeight(a: AffectedFile, b: AffectedFile): number {
  const weight = (file: AffectedFile): number => {
    const news = file.delta.introduced.flatMap((group) => group.diagnostics);
    return news.filter((diagnostic) => severityOf(diagnostic) === 1).length * 1000 + news.length;
  };
  return weight(b) - weight(a);
}

/**
 * After a write: check each written file (and files left pending by an earlier write) with its
 * language server, then the other files the write may have broken or fixed (see `affected-files.ts`),
 * and say, as one text block for the writing tool's result, only what changed — errors and warnings
 * introduced, and those resolved, at most {@link AFFECTED_SHOWN} other files in full and the rest by
 * name — plus what was checked, or why a file could not be checked yet. Files no server covers get
 * nothing. @returns undefined when there is nothing to say.
 */
export async function diagnosticsAfterWrite(
  supervisor: LspSupervisorInstance,
  workdir: string,
  paths: readonly string[],
  signal: AbortSignal,
  progress: (update: ProgressUpdate) => void,
  budget: AfterWriteBudget = supervisor.afterWriteBudget,
): Promise<ToolContent[] | undefined> {
  const owed = supervisor.ledger.pending().filter((path) => !paths.includes(path));
  const candidates = [...paths, ...owed];
  const checked = candidates.slice(0, CHECKED_PER_WRITE);
  const unchecked = candidates.slice(CHECKED_PER_WRITE).filter((path) => paths.includes(path));
  for (const path of unchecked) announceFileChange(supervisor, path, FileChangeType.Changed);
  const started = Date.now();
  // What the servers knew before the write, and the baseline of the files that import the written ones.
  const plans = await withDeadline(signal, budget.ceilingMs, (deadline) =>
    planAffectedFiles(supervisor, workdir, checked, deadline),
  );
  try {
    const allSynced = barrier(checked.length);
    const checks = await Promise.all(
      checked.map((path) => checkWrittenFile(supervisor, workdir, path, budget, signal, progress, allSynced)),
    );
    const rows: string[] = [];
    for (const check of checks) {
      if (check.kind === "checked") rows.push(...checkedLines(check));
      else if (check.kind === "pending")
        rows.push(
          `${check.shown}: not checked yet — ${check.why}; its diagnostics come with the next write's answer, or ask \`lsp\` \`diagnostics\` for it.`,
        );
      else if (check.kind === "failed") rows.push(`${check.shown}: could not be checked — ${check.why}`);
    }
    // Files the write did not touch but may have broken or fixed: within what is left of the ceiling, and never less than a floor.
    const left = Math.max(affectedMinimumMs, budget.ceilingMs - (Date.now() - started));
    plans.push(
      ...(await withDeadline(signal, left, (deadline) =>
        planStartedServers(supervisor, workdir, checked, plans, deadline),
      )),
    );
    const affectedWaitMs = Math.max(left, dependentsWaitMs(supervisor, plans));
    if (plans.length > 0)
      progress({
        message: `lsp: checking the files that depend on this write${affectedWaitMs > left ? ` (waiting up to ${Math.round(affectedWaitMs / 1000)} s, what the server needs for them)` : ""}`,
      });
    const affected = await withDeadline(signal, affectedWaitMs, (deadline) =>
      checkAffectedFiles(supervisor, workdir, plans, new Set(checked), deadline),
    );
    const changed = [...affected.changed].sort(byWeight);
    for (const file of changed.slice(0, AFFECTED_SHOWN))
      rows.push(...deltaLines(file.shown, file.delta, " (not written; changed with this write)", true));
    if (changed.length > AFFECTED_SHOWN) {
      const rest = changed.slice(AFFECTED_SHOWN);
      rows.push(
        `${rest.length} more ${rest.length === 1 ? "file" : "files"} affected (not written; changed with this write): ${rest.map(affectedSummary).join(", ")}; ask \`lsp\` \`diagnostics\` for one to see its errors.`,
      );
    }
    rows.push(...affected.notes);
    if (unchecked.length > 0) {
      rows.push(
        `${unchecked.length} more written ${unchecked.length === 1 ? "file was" : "files were"} not checked (at most ${CHECKED_PER_WRITE} per write), e.g. ${unchecked
          .slice(0, 3)
          .map((path) => `\`${displayPath(workdir, path)}\``)
          .join(", ")}; ask \`lsp\` \`diagnostics\` for them.`,
      );
    }
    if (checks.every((check) => check.kind === "none") && changed.length === 0) return undefined;
    const bounded = boundedRows({
      rows,
      total: rows.length,
      cap: rows.length,
      maxBytes: maxAnswerBytes,
      noun: ["line", "lines"],
      narrow: "ask `lsp` `diagnostics` for one file to see all of its diagnostics",
    });
    const cut = bounded.shown.length < rows.length ? `\n(${bounded.header})` : "";
    return [
      {
        type: "text",
        text: `Diagnostics after this write (lsp; an intermediate state may be intended):\n${bounded.shown.join("\n")}${cut}`,
      },
    ];
  } finally {
    // The importers opened for the asks were opened for this write only.
    for (const plan of plans) closeOpenedForAsks(plan.session, plan.openedForAsks ?? []);
  }
}
