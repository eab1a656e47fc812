import { signalWithDeadline, spawnOwnedProcess, type ProcessExit } from "@runbound/runtime-kit";
import { abortedError } from "@runbound/tool-kit";
import { captureStreamHead } from "./capture-stream-head.js";
import type { CheckerFormat } from "./checker-formats.js";
import type { ParsedDiagnostic } from "./checker-output/parsed-diagnostic.js";

/** A checker's output beyond this is read and dropped (a JSON document cut here no longer parses). */
export const MAX_CHECKER_OUTPUT_BYTES = 8 * 1024 * 1024;
/** Lines of stderr kept: all a stderr-reporting checker (`go vet`) can be read from, else for the failure report. */
export const STDERR_FINDING_LINES = 2_000;
const stderrReportLines = 20;
/** How long a checker gets after SIGTERM before its process group is killed. */
const stopGraceMs = 1_000;
/** How long the output pipe may stay open after the checker exited (its group is killed by then). */
const drainMs = 2_000;

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
}

/** How one checker run ended. */
export type CheckerRun =
  | { kind: "checked"; exit: ProcessExit; diagnostics: ParsedDiagnostic[]; cut: boolean; ms: number }
  | { kind: "unreadable"; exit: ProcessExit; stderr: string[]; cut: boolean; ms: number }
  | { kind: "timed_out"; stderr: string[] }
  | { kind: "not_started"; reason: string };

function exitedOrAborted(exit: Promise<ProcessExit>, signal: AbortSignal): Promise<ProcessExit | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    void exit.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    });
  });
}

// Output cut at the cap ends inside a line; that partial line would read as a garbled finding.
function wholeLines(text: string, cut: boolean): string {
  return cut ? text.slice(0, text.lastIndexOf("\n") + 1) : text;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Run a project checker in its own process group, bounded by the call's signal and a timeout (both
 * end the whole group), with its output capped, and read its findings. A checker that exits
 * non-zero with nothing readable is `unreadable`, never "no errors".
 * @throws ToolError `cancelled`/`timeout` when the call's signal aborts (the checker is gone by then).
 */
export async function runProjectChecker(request: CheckerRunRequest): Promise<CheckerRun> {
  const started = Date.now();
  const stderrLines = request.format.stream === "stderr" ? STDERR_FINDING_LINES : stderrReportLines;
  let child;
  try {
    child = await spawnOwnedProcess({ command: request.binary, args: request.args, cwd: request.root, env: request.env, stderrLines });
  } catch (error) {
    return { kind: "not_started", reason: error instanceof Error ? error.message : String(error) };
  }
  child.stdin.end();
  const stdout = captureStreamHead(child.stdout, request.maxOutputBytes ?? MAX_CHECKER_OUTPUT_BYTES);
  const deadline = signalWithDeadline(request.signal, request.timeoutMs);
  let exit: ProcessExit | undefined;
  try {
    exit = await exitedOrAborted(child.exit, deadline.signal);
  } finally {
    deadline.dispose();
  }
  if (exit === undefined) {
    await child.stop({ graceMs: stopGraceMs });
    if (request.signal.aborted) {
      throw abortedError(request.signal, {
        timeout: `The call's budget ran out while \`${request.binary}\` was checking \`${request.root}\`; it was stopped. Narrow the call to one project, e.g. {"op":"diagnostics","file":"<project directory>/*"}.`,
        cancelled: `The call was cancelled while \`${request.binary}\` was checking \`${request.root}\`; it was stopped.`,
      });
    }
    return { kind: "timed_out", stderr: child.stderrTail().slice(-stderrReportLines) };
  }
  await Promise.race([stdout.ended, delay(drainMs)]);
  const stderr = child.stderrTail();
  const cut = request.format.stream === "stderr" ? stderr.length >= STDERR_FINDING_LINES : stdout.cut;
  const output = request.format.stream === "stderr" ? stderr.join("\n") : wholeLines(stdout.text(), stdout.cut);
  const diagnostics = request.format.parse(output);
  const ms = Date.now() - started;
  if (diagnostics === undefined || (exit.code !== 0 && diagnostics.length === 0)) return { kind: "unreadable", exit, stderr: stderr.slice(-stderrReportLines), cut, ms };
  return { kind: "checked", exit, diagnostics, cut, ms };
}
