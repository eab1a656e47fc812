import { displayPath, isInside, type Placement } from "@runbound/runtime-kit";
import { stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { boundedRows } from "./bounded-rows.js";
import { CHECKER_FORMATS } from "./checker-formats.js";
import type { ParsedDiagnostic } from "./checker-output/parsed-diagnostic.js";
import { formatDiagnosticRow } from "./diagnostic-row.js";
import { findProjectRoots, skippedDirectories, type ProjectRoot } from "./find-project-roots.js";
import type { OpAnswer } from "./op-types.js";
import { MAX_CHECKER_OUTPUT_BYTES, runProjectChecker, type CheckerRun } from "./project-checker.js";
import { resolveProjectScope } from "./project-scope.js";
import { describeUntrusted } from "./project-trust.js";
import type { BinaryResolution, UntrustedPrograms } from "./resolve-binary.js";
import type { LspServerSpec, ProjectChecker } from "./server-spec.js";
import { serverSandboxNeeds } from "./server-sandbox-needs.js";

/** How long one project's checker may run by default before it is stopped. */
export const CHECKER_TIMEOUT_MS = 120_000;
/** The most projects one call checks; the rest are named with how to ask for them. */
export const MAX_CHECKED_PROJECTS = 8;
/** Rows shown per project (as for one file's diagnostics) and bytes of rows for the whole answer. */
const rowsPerProject = 40;
const maxRowsBytes = 12 * 1024;
const minRowsBytesPerProject = 2 * 1024;

/** What {@link projectDiagnosticsOp} needs. */
export interface ProjectDiagnosticsRequest {
  workdir: string;
  /** `*`, or a directory followed by `/*`. */
  file: string;
  servers: readonly LspServerSpec[];
  /** Where the checker's program is for a root: project-local first, then PATH. */
  findChecker(spec: LspServerSpec, checker: ProjectChecker, root: string): Promise<BinaryResolution>;
  signal: AbortSignal;
  /** Told before each checker starts, e.g. "running `tsc --noEmit` in packages/app (1 of 3)". */
  onProgress?: (message: string, done: number, total: number) => void;
  /** Per project; default {@link CHECKER_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Default {@link MAX_CHECKED_PROJECTS}. */
  maxProjects?: number;
  /** The checkers' environment; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** Where the checkers run; default the host. */
  placement?: Placement;
  /** Told of every project whose checker ran to the end, with all its findings (the diagnostics ledger's baseline). */
  onChecked?: (spec: LspServerSpec, root: string, findings: readonly ParsedDiagnostic[]) => void;
}

type ProjectOutcome = CheckerRun | { kind: "not_found"; looked: string[]; untrusted?: UntrustedPrograms };

interface ProjectReport {
  root: string;
  server: string;
  checker: string;
  state: string;
  errors: number;
  warnings: number;
  rows: string[];
  text: string;
}

const plural = (count: number, singular: string, several = `${singular}s`): string =>
  `${count} ${count === 1 ? singular : several}`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const commandLine = (checker: ProjectChecker): string => [checker.command, ...checker.args].join(" ");
const keptMegabytes = MAX_CHECKER_OUTPUT_BYTES / (1024 * 1024);

function lacking(workdir: string, project: ProjectRoot): string {
  const checker = project.spec.checker!;
  return `\`${displayPath(workdir, project.root)}\` (\`${project.marker}\` makes it a ${project.spec.id} root, but \`${checker.command}\` needs ${checker.needsOneOf!.map((name) => `\`${name}\``).join(" or ")})`;
}

async function applies(project: ProjectRoot): Promise<boolean> {
  const needs = project.spec.checker!.needsOneOf;
  if (needs === undefined) return true;
  for (const name of needs) {
    if (
      await stat(join(project.root, name)).then(
        (stats) => stats.isFile(),
        () => false,
      )
    )
      return true;
  }
  return false;
}

// Eight failing projects must not flood the answer with their stderr: the last lines say what went wrong.
const quotedLines = 12;
const quotedLineLength = 300;

function quoted(lines: readonly string[]): string {
  if (lines.length === 0) return " It wrote nothing to stderr.";
  return ` Its last stderr lines:\n${lines
    .slice(-quotedLines)
    .map((line) => `  | ${line.slice(0, quotedLineLength)}`)
    .join("\n")}`;
}

function shownPath(workdir: string, root: string, diagnostic: ParsedDiagnostic): string {
  if (diagnostic.file === undefined) return displayPath(workdir, root);
  const absolute = isAbsolute(diagnostic.file) ? diagnostic.file : resolve(root, diagnostic.file);
  return isInside(workdir, absolute) ? displayPath(workdir, absolute) : absolute;
}

function rank(diagnostic: ParsedDiagnostic): number {
  return diagnostic.severity === "error" ? 0 : 1;
}

function checkedReport(
  workdir: string,
  root: string,
  run: Extract<CheckerRun, { kind: "checked" }>,
  rowsBytes: number,
  single: boolean,
): Pick<ProjectReport, "errors" | "warnings" | "rows" | "text"> {
  const shown = run.diagnostics.filter((diagnostic) => diagnostic.severity !== "info");
  const infos = run.diagnostics.length - shown.length;
  const errors = shown.filter((diagnostic) => diagnostic.severity === "error").length;
  const warnings = shown.length - errors;
  const located = shown.map((diagnostic) => ({ diagnostic, path: shownPath(workdir, root, diagnostic) }));
  located.sort(
    (a, b) =>
      rank(a.diagnostic) - rank(b.diagnostic) ||
      a.path.localeCompare(b.path) ||
      (a.diagnostic.line ?? 0) - (b.diagnostic.line ?? 0),
  );
  const rows = located.map(({ diagnostic, path }) =>
    formatDiagnosticRow({
      path,
      line: diagnostic.line,
      severity: diagnostic.severity,
      code: diagnostic.code,
      message: diagnostic.message,
    }),
  );
  const infoNote = infos > 0 ? `, ${plural(infos, "info")} not shown` : "";
  const cutNote = run.cut ? `; its output passed the ${keptMegabytes} MB kept, so there are at least this many` : "";
  if (rows.length === 0)
    return { errors, warnings, rows, text: `no errors or warnings (${seconds(run.ms)}${infoNote}${cutNote}).` };
  const example = located.find(({ diagnostic }) => diagnostic.file !== undefined)?.path ?? "src/app.ts";
  const narrow = single
    ? `fix the first ones and check again, or ask for one file with {"op":"diagnostics","file":"${example}"}`
    : `ask for this project alone with {"op":"diagnostics","file":"${displayPath(workdir, root)}/*"} or for one file with {"op":"diagnostics","file":"${example}"}`;
  const bounded = boundedRows({
    rows,
    total: rows.length,
    cap: rowsPerProject,
    maxBytes: rowsBytes,
    noun: ["row", "rows"],
    narrow,
  });
  const cut = bounded.shown.length < rows.length ? ` ${bounded.header}` : "";
  const summary = `${plural(errors, "error")}, ${plural(warnings, "warning")} (${seconds(run.ms)}${infoNote}${cutNote}).${cut}`;
  return { errors, warnings, rows: bounded.shown, text: `${summary}\n${bounded.shown.join("\n")}` };
}

function outcomeText(project: ProjectRoot, outcome: ProjectOutcome, timeoutMs: number, workdir: string): string {
  const checker = project.spec.checker!;
  switch (outcome.kind) {
    case "not_found":
      if (outcome.untrusted !== undefined) {
        return `not run: \`${checker.command}\` is not on PATH, and ${describeUntrusted(outcome.untrusted.paths, outcome.untrusted.trust, (path) => displayPath(workdir, path))}, or install it outside the project, on PATH.`;
      }
      return `not run: \`${checker.command}\` is in none of the project's ${outcome.looked.length > 0 ? `bin directories nor on PATH (${plural(outcome.looked.length, "place")} searched, first \`${outcome.looked[0]}\`)` : "bin directories nor on PATH"}. Install it: ${checker.install}.`;
    case "not_started":
      return `could not be started: ${outcome.reason}.`;
    case "timed_out":
      return `did not finish within ${seconds(timeoutMs)} and was stopped with its processes, so its findings are unknown. Narrow the call to a smaller project, or run \`${commandLine(checker)}\` yourself.${quoted(outcome.stderr)}`;
    case "unreadable": {
      const how =
        outcome.exit.code === null
          ? `was ended by ${outcome.exit.signal ?? "a signal"}`
          : `exited with code ${outcome.exit.code}`;
      const cut = outcome.cut ? ` Its output passed the ${keptMegabytes} MB kept and was cut.` : "";
      return `${how} without findings that could be read (${seconds(outcome.ms)}), so this is not a clean result.${cut}${quoted(outcome.stderr)}`;
    }
    case "checked":
      return "";
  }
}

/**
 * Answer `diagnostics` for `*` (or `<directory>/*`): find the project roots with a checker, run
 * each checker (at most {@link MAX_CHECKED_PROJECTS}, one after another, each bounded), and give
 * per project its counts and its errors and warnings as workspace-relative rows.
 */
export async function projectDiagnosticsOp(request: ProjectDiagnosticsRequest): Promise<OpAnswer> {
  const { workdir } = request;
  const scope = await resolveProjectScope(workdir, request.file);
  const shownScope = displayPath(workdir, scope);
  const timeoutMs = request.timeoutMs ?? CHECKER_TIMEOUT_MS;
  const found = await findProjectRoots(scope, workdir, request.servers, request.signal);
  const notApplicable: ProjectRoot[] = [];
  const candidates: ProjectRoot[] = [];
  for (const project of found.roots) ((await applies(project)) ? candidates : notApplicable).push(project);
  const searchNote = found.searchCut
    ? ` The search stopped after reading many directories; narrow it with {"op":"diagnostics","file":"<directory>/*"}.`
    : "";
  if (candidates.length === 0) {
    const markers = [
      ...new Set(
        request.servers.filter((spec) => spec.checker !== undefined).flatMap((spec) => spec.rootMarkers.flat()),
      ),
    ];
    const why =
      notApplicable.length > 0
        ? `No project at or below \`${shownScope}\` can be checked. Not checked: ${notApplicable.map((project) => lacking(workdir, project)).join(", ")}.`
        : `No project with a checker at or below \`${shownScope}\`: no directory there holds ${markers.map((marker) => `\`${marker}\``).join(", ")} (${skippedDirectories().join(", ")} are not searched).`;
    const text = `${why}${searchNote} For one file's diagnostics from its language server, give the file, e.g. {"op":"diagnostics","file":"src/app.ts"}.`;
    return { text, structured: { op: "diagnostics", scope: shownScope, complete: false, projects: [] } };
  }
  const limit = request.maxProjects ?? MAX_CHECKED_PROJECTS;
  const chosen = candidates.slice(0, limit);
  const leftOut = candidates.slice(limit);
  const outcomes: ProjectOutcome[] = [];
  for (const [index, project] of chosen.entries()) {
    const checker = project.spec.checker!;
    const binary = await request.findChecker(project.spec, checker, project.root);
    if (!binary.found) {
      outcomes.push({
        kind: "not_found",
        looked: binary.looked,
        ...(binary.untrusted === undefined ? {} : { untrusted: binary.untrusted }),
      });
      continue;
    }
    request.onProgress?.(
      `running \`${commandLine(checker)}\` in ${displayPath(workdir, project.root)} (${index + 1} of ${chosen.length})`,
      index,
      chosen.length,
    );
    const needs =
      request.placement?.kind === "sandbox"
        ? await serverSandboxNeeds({
            serverId: project.spec.id,
            program: binary.path,
            root: project.root,
            workdir,
            env: request.env ?? process.env,
          })
        : undefined;
    outcomes.push(
      await runProjectChecker({
        binary: binary.path,
        // pyright's checker names its interpreter where the PATH one may not run (see ServerSandboxNeeds).
        args: needs?.pythonPath === undefined ? checker.args : [...checker.args, "--pythonpath", needs.pythonPath],
        root: project.root,
        format: CHECKER_FORMATS[checker.format],
        signal: request.signal,
        timeoutMs,
        ...(request.env === undefined ? {} : { env: request.env }),
        ...(request.placement === undefined ? {} : { placement: request.placement }),
        ...(needs === undefined ? {} : { sandboxNeeds: needs }),
      }),
    );
  }
  const withRows = outcomes.filter(
    (outcome) => outcome.kind === "checked" && outcome.diagnostics.some((diagnostic) => diagnostic.severity !== "info"),
  ).length;
  const rowsBytes = Math.max(minRowsBytesPerProject, Math.floor(maxRowsBytes / Math.max(1, withRows)));
  const reports: ProjectReport[] = chosen.map((project, index) => {
    const outcome = outcomes[index]!;
    const root = displayPath(workdir, project.root);
    const checker = project.spec.checker!;
    const heading = `${root} — \`${commandLine(checker)}\`: `;
    const base = { root, server: project.spec.id, checker: commandLine(checker), state: outcome.kind };
    if (outcome.kind === "checked") {
      if (!outcome.cut) request.onChecked?.(project.spec, project.root, outcome.diagnostics);
      const report = checkedReport(workdir, project.root, outcome, rowsBytes, chosen.length === 1);
      return { ...base, ...report, text: heading + report.text };
    }
    return {
      ...base,
      errors: 0,
      warnings: 0,
      rows: [],
      text: heading + outcomeText(project, outcome, timeoutMs, workdir),
    };
  });
  const checked = reports.filter((report) => report.state === "checked");
  const errors = checked.reduce((sum, report) => sum + report.errors, 0);
  const warnings = checked.reduce((sum, report) => sum + report.warnings, 0);
  const unchecked = reports.length - checked.length;
  const uncheckedNote = unchecked > 0 ? `; ${plural(unchecked, "project")} not checked (below)` : "";
  const atLeast = outcomes.some((outcome) => outcome.kind === "checked" && outcome.cut) ? "at least " : "";
  const lines = [
    `Project checkers at or below \`${shownScope}\`: ${plural(checked.length, "project")} checked — ${atLeast}${plural(errors, "error")}, ${plural(warnings, "warning")}${uncheckedNote}.${searchNote}`,
  ];
  if (leftOut.length > 0) {
    const names = leftOut
      .slice(0, 10)
      .map((project) => `\`${displayPath(workdir, project.root)}\` (${project.spec.id})`);
    lines.push(
      `Left out ${leftOut.length} of ${candidates.length} projects (at most ${limit} a call): ${names.join(", ")}${leftOut.length > 10 ? ` and ${leftOut.length - 10} more` : ""}; ask for them with {"op":"diagnostics","file":"<directory>/*"}.`,
    );
  }
  if (notApplicable.length > 0) {
    lines.push(`Not checked: ${notApplicable.map((project) => lacking(workdir, project)).join(", ")}.`);
  }
  lines.push(...reports.map((report) => report.text));
  const complete =
    leftOut.length === 0 &&
    !found.searchCut &&
    unchecked === 0 &&
    outcomes.every((outcome) => outcome.kind === "checked" && !outcome.cut);
  return {
    text: lines.join("\n"),
    structured: {
      op: "diagnostics",
      scope: shownScope,
      complete,
      projects: reports.map(({ text: _text, ...report }) => report),
      leftOut: leftOut.map((project) => displayPath(workdir, project.root)),
    },
  };
}
