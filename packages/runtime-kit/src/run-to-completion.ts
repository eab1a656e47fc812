import { captureStreamHead } from "./capture-stream-head.js";
import { spawnOwnedProcess, type OwnedProcessSettings, type ProcessExit } from "./owned-process.js";
import { signalWithDeadline } from "./signal-with-deadline.js";

/** Settings of {@link runToCompletion}; `placement` and what it needs as for `spawnOwnedProcess`. */
export interface RunToCompletionSettings extends Pick<
  OwnedProcessSettings,
  "placement" | "ownEnv" | "readOnlyPaths" | "writablePaths"
> {
  /** The program: an absolute path, or a name looked up on `env.PATH`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /** The working directory; default this process's. */
  cwd?: string;
  /** The environment; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** Written to its standard input, which is then closed (closed at once without it). */
  input?: string;
  /** Aborting it stops the program (its whole process group); the run then ends as `aborted`. */
  signal?: AbortSignal;
  /** Milliseconds before the program is stopped and the run ends as `timed_out`; default no limit. */
  timeoutMs?: number;
  /** Bytes of stdout kept; the rest is read and dropped. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Lines of stderr kept (the last ones); default 50. */
  stderrLines?: number;
  /** Milliseconds between SIGTERM and SIGKILL when the program is stopped; default 1 000. */
  graceMs?: number;
}

/** How a {@link runToCompletion} went. */
export interface CompletedRun {
  /** `exited` by itself, or stopped: `timed_out` at the timeout, `aborted` when the signal aborted. */
  ending: "exited" | "timed_out" | "aborted";
  /** Its exit code or signal (after a stop, the signal that ended it). */
  exit: ProcessExit;
  /** The first `maxOutputBytes` of stdout, as UTF-8 text. */
  stdout: string;
  /** Whether stdout had more than was kept. */
  stdoutCut: boolean;
  /** The last lines of stderr, oldest first. */
  stderr: string[];
  /** Milliseconds from start to end. */
  ms: number;
}

/** How long stdout may stay open after the program exited (its group is killed by then). */
const drainMs = 2_000;

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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Run a program once, to its end, in a process group of its own (see `spawnOwnedProcess`): its
 * output bounded (stdout's head, stderr's tail), stopped with its whole group — SIGTERM, then SIGKILL
 * after `graceMs` — when `timeoutMs` passes or `signal` aborts, so nothing it started outlives it.
 * Never rejects for how the program ended; the caller reads `ending` and `exit`.
 *
 * @throws the spawn error (`ENOENT` for a missing program), or the signal's reason when it had aborted
 * before the program started (nothing is started then).
 */
export async function runToCompletion(settings: RunToCompletionSettings): Promise<CompletedRun> {
  settings.signal?.throwIfAborted();
  const started = Date.now();
  const child = await spawnOwnedProcess({
    command: settings.command,
    args: settings.args ?? [],
    cwd: settings.cwd ?? process.cwd(),
    ...(settings.env === undefined ? {} : { env: settings.env }),
    stderrLines: settings.stderrLines ?? 50,
    ...(settings.placement === undefined ? {} : { placement: settings.placement }),
    ...(settings.ownEnv === undefined ? {} : { ownEnv: settings.ownEnv }),
    ...(settings.readOnlyPaths === undefined ? {} : { readOnlyPaths: settings.readOnlyPaths }),
    ...(settings.writablePaths === undefined ? {} : { writablePaths: settings.writablePaths }),
  });
  child.stdin.end(settings.input);
  const stdout = captureStreamHead(child.stdout, settings.maxOutputBytes ?? 1024 * 1024);
  const outer = settings.signal ?? new AbortController().signal;
  const deadline = signalWithDeadline(outer, settings.timeoutMs ?? Number.POSITIVE_INFINITY);
  let exit: ProcessExit | undefined;
  try {
    exit = await exitedOrAborted(child.exit, deadline.signal);
  } finally {
    deadline.dispose();
  }
  let ending: CompletedRun["ending"] = "exited";
  if (exit === undefined) {
    ending = outer.aborted ? "aborted" : "timed_out";
    exit = await child.stop({ graceMs: settings.graceMs ?? 1_000 });
  }
  await Promise.race([stdout.ended, delay(drainMs)]);
  return {
    ending,
    exit,
    stdout: stdout.text(),
    stdoutCut: stdout.cut,
    stderr: child.stderrTail(),
    ms: Date.now() - started,
  };
}
