import type { Placement } from "@runbound/runtime-kit";
import type { Run } from "@runbound/runner-adapter";
import { VibeMode, type Tier } from "@runbound/tool-kit";
import { createProcessRoster, VibeRoster } from "@runbound/tool-vibe";
import type { VibeWorkers } from "./cli-arguments.js";
import { WORKER_TRUST_VARIABLE } from "./project-trust.js";

/** What the run hands its workers besides their command lines. */
export interface WorkerRules {
  /** The tiers a worker must ask its caller about (`RUNBOUND_ASK`). */
  askTiers: readonly Tier[];
  /** Whether this run trusts the project's own programs; a worker of a run that does not, does not either. */
  trustsProject: boolean;
  /** Where workers run; default the host. */
  placement?: Placement;
  /** With a sandbox placement: host paths workers read. */
  readOnlyPaths?: readonly string[];
}

/**
 * Vibe mode (`--vibe`): a roster whose workers are the given command lines, started in the workdir,
 * and the `VibeMode` run fact. A spawn without a tier gets `fast` when it is configured. Every worker
 * gets `askTiers` as `RUNBOUND_ASK`, the tiers its own run must not run unasked, and an approval
 * channel on which this run decides those calls as its own (`run.approve`: its policy, then its
 * operator). A run that does not trust the project tells its workers so (`RUNBOUND_TRUST_PROJECT=no`).
 * The roster's workers die with the run.
 */
export async function attachVibeMode(
  run: Run,
  workdir: string,
  workers: VibeWorkers,
  { askTiers, trustsProject, placement, readOnlyPaths }: WorkerRules,
): Promise<void> {
  const roster = createProcessRoster({
    ...(placement === undefined ? {} : { placement }),
    ...(readOnlyPaths === undefined ? {} : { readOnlyPaths }),
    env: trustsProject ? process.env : { ...process.env, [WORKER_TRUST_VARIABLE]: "no" },
    askTiers,
    approve: ({ workerId, ceiling, tool, input }, signal) =>
      run.approve(tool, input, { caller: { name: `worker ${workerId}`, ceiling }, signal }),
    ...(workers.fast === undefined ? {} : { fast: workers.fast }),
    ...(workers.good === undefined ? {} : { good: workers.good }),
    cwd: workdir,
  });
  await run.attach(VibeRoster, { value: roster, dispose: () => roster.dispose(), describe: () => roster.describe() });
  await run.attach(VibeMode, { value: { defaultWorkerTier: workers.fast === undefined ? "good" : "fast" } });
}
