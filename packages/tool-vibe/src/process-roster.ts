import { hostPlacement, type Placement } from "@runbound/runtime-kit";
import type { Tier } from "@runbound/tool-kit";
import { createFunctionRoster, type RosterSettings } from "./function-roster.js";
import { createProcessWorkerRunner } from "./process-worker-runner.js";
import type { WorkerCallApprover } from "./serve-caller-approvals.js";
import { WORKER_TIERS, type VibeRosterInstance, type WorkerTier } from "./vibe-roster.js";
import { displayWorkerCommand, type WorkerCommandLine } from "./worker-command.js";

/** Settings of {@link createProcessRoster}. */
export interface ProcessRosterSettings extends Omit<RosterSettings, "tiers" | "settleGraceMs" | "describeRunner"> {
  /** The command of `fast` workers, e.g. `"claude -p --model haiku"` (run by `/bin/sh -c`) or `{ command, args }`. */
  fast?: WorkerCommandLine;
  /** The command of `good` workers. At least one of `fast` and `good` is needed. */
  good?: WorkerCommandLine;
  /** Where workers start; default the current directory. Pass the run's workdir. */
  cwd?: string;
  /** The environment workers inherit (the worker variables are added to it); default this process's. */
  env?: NodeJS.ProcessEnv;
  /**
   * The tiers the host's approval policy asks about (the CLI's `--ask`), handed to every worker as
   * `RUNBOUND_ASK` (`none` for an empty list) so the worker's own run asks for them too. Undefined
   * leaves the variable as the inherited environment has it. A host with an approval policy must
   * give it: vibe_spawn itself is never asked about.
   */
  askTiers?: readonly Tier[];
  /**
   * Decides the calls a worker asks its caller about (those of `askTiers`), as the caller's own run
   * would decide them: runner-adapter's `run.approve`. Given, every worker gets an approval channel
   * (file descriptor 3, named in `RUNBOUND_APPROVAL_FD`); without it a worker denies those calls.
   */
  approve?: WorkerCallApprover;
  /** Milliseconds between SIGTERM and SIGKILL when a worker is stopped; default 2 000. */
  stopGraceMs?: number;
  /**
   * Where workers run; default the host. With a sandbox (runtime-kit's `createBubblewrapPlacement`,
   * usually with `network: true` for the worker's model API), a worker sees the workdir, what it is
   * given read-only, and only an allowlisted environment plus its worker variables.
   */
  placement?: Placement;
  /** With a sandbox placement: host paths workers need to read (an agent CLI's installation, its config). */
  readOnlyPaths?: readonly string[];
}

// Past the kill grace a process group is SIGKILLed; runtime-kit then waits up to 1 s for it to vanish
// and the runner up to 1 s for stdout to close. Only a slot stuck past all that is given up on.
const settleMarginMs = 3_000;

/**
 * A roster whose workers are processes: any command-line agent, or `runbound session`. Each run gets
 * its brief on stdin and `RUNBOUND_WORKER_TIER`, `RUNBOUND_CEILING`, `RUNBOUND_ASK` (when `askTiers`
 * is given), `RUNBOUND_APPROVAL_FD` (when `approve` is), `RUNBOUND_WORKER_ID` and `RUNBOUND_WORKER_RUN`
 * in its environment; its stdout (the end of it, bounded) is its result.
 *
 * @throws TypeError when neither `fast` nor `good` is given.
 */
export function createProcessRoster(settings: ProcessRosterSettings): VibeRosterInstance {
  const commands: Partial<Record<WorkerTier, WorkerCommandLine>> = {};
  for (const tier of WORKER_TIERS) {
    const line = settings[tier];
    if (line !== undefined) commands[tier] = line;
  }
  const tiers = WORKER_TIERS.filter((tier) => commands[tier] !== undefined);
  if (tiers.length === 0)
    throw new TypeError(
      "A process roster needs a command for at least one tier: give `fast`, `good` or both (the CLI's --worker-fast and --worker-good).",
    );
  const stopGraceMs = settings.stopGraceMs ?? 2_000;
  const maxOutputChars = settings.maxOutputChars ?? 65_536;
  const runWorker = createProcessWorkerRunner({
    commands,
    cwd: settings.cwd ?? process.cwd(),
    env: settings.env,
    askTiers: settings.askTiers,
    approve: settings.approve,
    placement: settings.placement,
    readOnlyPaths: settings.readOnlyPaths,
    stopGraceMs,
    maxOutputChars,
  });
  return createFunctionRoster(runWorker, {
    concurrency: settings.concurrency,
    ceiling: settings.ceiling,
    maxWorkers: settings.maxWorkers,
    maxOutputChars,
    tiers,
    settleGraceMs: stopGraceMs + settleMarginMs,
    describeRunner: () =>
      `${tiers.map((tier) => `${tier}: \`${displayWorkerCommand(commands[tier]!)}\``).join("; ")}; workers run ${(settings.placement ?? hostPlacement).describe()}`,
  });
}
