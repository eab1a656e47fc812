import type { Tier } from "@runbound/tool-kit";
import {
  hostPlacement,
  spawnOwnedProcess,
  type OwnedProcess,
  type Placement,
  type ProcessExit,
} from "@runbound/runtime-kit";
import type { RunWorker } from "./function-roster.js";
import { CALLER_APPROVAL_FD } from "./caller-approval-protocol.js";
import { OutputTail } from "./output-tail.js";
import { serveCallerApprovals, type WorkerCallApprover } from "./serve-caller-approvals.js";
import type { WorkerTier } from "./vibe-roster.js";
import { displayWorkerCommand, toWorkerCommand, type WorkerCommandLine } from "./worker-command.js";
import { WORKER_ENVIRONMENT, workerEnvironment } from "./worker-environment.js";

/** Settings of {@link createProcessWorkerRunner}. */
export interface ProcessWorkerRunnerSettings {
  /** The command per tier; a tier without one is never asked for (the roster refuses it). */
  commands: Partial<Record<WorkerTier, WorkerCommandLine>>;
  /** Where workers start. */
  cwd: string;
  /** The environment workers inherit before the worker variables are added; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** The tiers the caller's approval policy asks about, given as `RUNBOUND_ASK`; undefined leaves it out. */
  askTiers?: readonly Tier[] | undefined;
  /** Where workers run; default the host. */
  placement?: Placement | undefined;
  /** With a sandbox placement: host paths workers read besides their command's own directory (an agent's installation). */
  readOnlyPaths?: readonly string[] | undefined;
  /** Decides the calls workers ask about on their approval channel; undefined: workers get no channel. */
  approve?: WorkerCallApprover | undefined;
  /** Milliseconds between SIGTERM and SIGKILL when a worker is stopped; default 2 000. */
  stopGraceMs: number;
  /** How many characters of stdout are kept (the end). */
  maxOutputChars: number;
}

// After the leader exits, runtime-kit kills the rest of its group; its stdout then closes at once.
// The bound covers a descendant that left the group (setsid) holding the pipe open.
const stdoutDrainMs = 1_000;
const stderrLinesInFailure = 5;

function describeExit(command: string, exit: ProcessExit, stderr: readonly string[]): string {
  const how = exit.signal === null ? `exited with code ${exit.code}` : `was ended by signal ${exit.signal}`;
  const lines = stderr.filter((line) => line.trim().length > 0).slice(-stderrLinesInFailure);
  return `Worker command \`${command}\` ${how}.${lines.length > 0 ? ` Its last stderr lines:\n${lines.join("\n")}` : " It wrote nothing to stderr."}`;
}

async function start(
  line: WorkerCommandLine,
  settings: ProcessWorkerRunnerSettings,
  workerVariables: Record<string, string>,
): Promise<OwnedProcess> {
  const { command, args } = toWorkerCommand(line);
  const env = { ...(settings.env ?? process.env), ...workerVariables };
  // A channel this roster's own caller gave it is not the worker's: without one of its own, the worker must not look for it.
  if (settings.approve === undefined) delete env[WORKER_ENVIRONMENT.approvals];
  try {
    return await spawnOwnedProcess({
      command,
      args,
      cwd: settings.cwd,
      env,
      // Its first extra channel is fd 3, CALLER_APPROVAL_FD.
      extraChannels: settings.approve === undefined ? 0 : 1,
      placement: settings.placement ?? hostPlacement,
      // The worker variables travel into a sandbox whatever its allowlist says: a worker needs them.
      ownEnv: Object.keys(workerVariables),
      ...(settings.readOnlyPaths === undefined ? {} : { readOnlyPaths: settings.readOnlyPaths }),
    });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new Error(
      `Worker command \`${displayWorkerCommand(line)}\` could not be started (${reason}). Check that the program exists and the command line is right.`,
      { cause: error },
    );
  }
}

/**
 * A {@link RunWorker} that runs each worker run as a process in its own process group: the brief on
 * stdin (then closed), the tier, ceiling and approval tiers in its environment, the approval channel
 * on file descriptor 3 when `approve` is given, stdout as the result. Exit code 0 is
 * success; any other end is a failure quoting the last stderr lines. A stopped run ends the whole
 * group (SIGTERM, then SIGKILL after the grace) before it settles.
 */
export function createProcessWorkerRunner(settings: ProcessWorkerRunnerSettings): RunWorker {
  return async (request) => {
    const line = settings.commands[request.tier]!;
    const approvalFd = settings.approve === undefined ? undefined : CALLER_APPROVAL_FD;
    const child = await start(line, settings, workerEnvironment(request, settings.askTiers, approvalFd));
    const runEnded = new AbortController();
    if (settings.approve !== undefined) {
      serveCallerApprovals(
        child.channels[0]!,
        { workerId: request.workerId, ceiling: request.ceiling },
        settings.approve,
        AbortSignal.any([request.signal, runEnded.signal]),
      );
    }
    const stop = (): void => void child.stop({ graceMs: settings.stopGraceMs });
    request.signal.addEventListener("abort", stop, { once: true });
    if (request.signal.aborted) stop();
    const stdout = new OutputTail(settings.maxOutputChars);
    const stdoutClosed = new Promise<void>((resolve) => child.stdout.once("close", resolve));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout.append(chunk);
      request.onOutput(chunk);
    });
    child.stdin.end(request.brief);
    try {
      const exit = await child.exit;
      let drainTimer: NodeJS.Timeout | undefined;
      await Promise.race([stdoutClosed, new Promise((resolve) => (drainTimer = setTimeout(resolve, stdoutDrainMs)))]);
      clearTimeout(drainTimer);
      if (request.signal.aborted) throw new Error(`Worker command \`${displayWorkerCommand(line)}\` was stopped.`);
      if (exit.code === 0) return stdout.value;
      throw new Error(describeExit(displayWorkerCommand(line), exit, child.stderrTail()));
    } finally {
      runEnded.abort();
      request.signal.removeEventListener("abort", stop);
    }
  };
}
