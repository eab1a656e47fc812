import type { Run } from "@runbound/runner-adapter";
import { VibeMode, type Tier } from "@runbound/tool-kit";
import { createProcessRoster, VibeRoster } from "@runbound/tool-vibe";
import type { VibeWorkers } from "./cli-arguments.js";

/**
 * Vibe mode (`--vibe`): a roster whose workers are the given command lines, started in the workdir,
 * and the `VibeMode` run fact. A spawn without a tier gets `fast` when it is configured. Every worker
 * gets `askTiers` as `RUNBOUND_ASK`, the tiers its own run must not run unasked. The roster's
 * workers die with the run.
 */
export async function attachVibeMode(run: Run, workdir: string, workers: VibeWorkers, askTiers: readonly Tier[]): Promise<void> {
  const roster = createProcessRoster({
    askTiers,
    ...(workers.fast === undefined ? {} : { fast: workers.fast }),
    ...(workers.good === undefined ? {} : { good: workers.good }),
    cwd: workdir,
  });
  await run.attach(VibeRoster, { value: roster, dispose: () => roster.dispose(), describe: () => roster.describe() });
  await run.attach(VibeMode, { value: { defaultWorkerTier: workers.fast === undefined ? "good" : "fast" } });
}
