import { runToCompletion, type Placement, type ProcessExit } from "@runbound/runtime-kit";
import type { ServerSandboxNeeds } from "./server-sandbox-needs.js";
import { abortedError } from "@runbound/tool-kit";
import type { CheckerFormat } from "./checker-formats.js";
import type { ParsedDiagnostic } from "./checker-output/parsed-diagnostic.js";

/** A checker's output beyond this is read and dropped (a JSON document cut here no longer parses). */
export const MAX_CHECKER_OUTPUT_BYTES = 8 * 1024 * 1024;
/** Lines of stderr kept: all a stderr-reporting checker (`go vet`) can be read from, else for the failure report. */
export const STDERR_FINDING_LINES = 2_000;
const stderrReportLines = 20;
/** How long a checker gets after SIGTERM before its process group is killed. */
const stopGraceMs = 1_000;

/** What {@link runProjectChecker} needs. */
export interface CheckerRunRequest {
  /** The program (absolute). */
  binary: string;
  args: readonly string[];
  /** Where it runs: the project root. */
  root: string;
  format: CheckerFormat;
  /** The call's signal: aborting it stops the checker and rejects. */
  signal: AbortSignal;
  /** The checker is stopped after this long and reported as timed out. */
  timeoutMs: number;
  /** Output kept at most; default {@link MAX_CHECKER_OUTPUT_BYTES}. */
  maxOutputBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** Where it runs; default the host. */
  placement?: Placement;
  /** In a sandbox: what it needs of the host (see `serverSandboxNeeds`). */
  sandboxNeeds?: ServerSandboxNeeds;
}

/** How one checker run ended. */
export type CheckerRun =
  | { kind: "checked"; exit: ProcessExit; diagnostics: ParsedDiagnostic[]; cut: boolean; ms: number }
  | { kind: "unreadable"; exit: ProcessExit; stderr: string[]; cut: boolean; ms: number }
  | { kind: "timed_out"; stderr: string[] }
  | { kind: "not_started"; reason: string };

// Output cut at the cap ends inside a line; that partial line would read as a garbled finding.
function wholeLines(text: string, cut: boolean): string {
  return cut ? text.slice(0, text.lastIndexOf("\n") + 1) : text;
}

function aborted(request: CheckerRunRequest): Error {
  return abortedError(request.signal, {
    timeout: `The call's budget ran out while \`${request.binary}\` was checking \`${request.root}\`; it was stopped. Narrow the call to one project, e.g. {"op":"diagnostics","file":"<project directory>/*"}.`,
    cancelled: `The call was cancelled while \`${request.binary}\` was checking \`${request.root}\`; it was stopped.`,
  });
}

/**
 * Run a project checker in its own process group, bounded by the call's signal and a timeout (both
 * end the whole group), with its output capped, and read its findings. A checker that exits
 * non-zero with nothing readable is `unreadable`, never "no errors".
 * @throws ToolError `cancelled`/`timeout` when the call's signal aborts (the checker is gone by then).
 */
export async function runProjectChecker(request: CheckerRunRequest): Promise<CheckerRun> {
  const stderrLines = request.format.stream === "stderr" ? STDERR_FINDING_LINES : stderrReportLines;
  let run;
  try {
    const needs = request.sandboxNeeds;
    run = await runToCompletion({
      command: request.binary,
      args: request.args,
      cwd: request.root,
      env: { ...(request.env ?? process.env), ...needs?.env },
      ...(request.placement === undefined ? {} : { placement: request.placement }),
      ...(needs === undefined
        ? {}
        : { readOnlyPaths: needs.readOnlyPaths, writablePaths: needs.writablePaths, ownEnv: Object.keys(needs.env) }),
      signal: request.signal,
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes ?? MAX_CHECKER_OUTPUT_BYTES,
      stderrLines,
      graceMs: stopGraceMs,
    });
  } catch (error) {
    if (request.signal.aborted) throw aborted(request);
    return { kind: "not_started", reason: error instanceof Error ? error.message : String(error) };
  }
  if (run.ending === "aborted") throw aborted(request);
  if (run.ending === "timed_out") return { kind: "timed_out", stderr: run.stderr.slice(-stderrReportLines) };
  const { exit, stderr } = run;
  const cut = request.format.stream === "stderr" ? stderr.length >= STDERR_FINDING_LINES : run.stdoutCut;
  const output = request.format.stream === "stderr" ? stderr.join("\n") : wholeLines(run.stdout, run.stdoutCut);
  const diagnostics = request.format.parse(output);
  const ms = run.ms;
  if (diagnostics === undefined || (exit.code !== 0 && diagnostics.length === 0))
    return { kind: "unreadable", exit, stderr: stderr.slice(-stderrReportLines), cut, ms };
  return { kind: "checked", exit, diagnostics, cut, ms };
}
