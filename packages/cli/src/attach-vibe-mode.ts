import type { Run } from "@runbound/runner-adapter";
import { VibeMode } from "@runbound/tool-kit";
import { createProcessRoster, VibeRoster } from "@runbound/tool-vibe";
import type { VibeWorkers } from "./cli-arguments.js";

/**
 * Vibe mode (`--vibe`): a roster whose workers are the given command lines, started in the workdir,
 * and the `VibeMode` run fact. A spawn without a tier gets `fast` when it is configured. The roster's
 * workers die with the run.
 */
export async function attachVibeMode(run: Run, workdir: string, workers: VibeWorkers): Promise<void> {
  const roster = createProcessRoster({
    ...(workers.fast === undefined ? {} : { fast: workers.fast }),
    ...(workers.good === undefined ? {} : { good: workers.good }),
    cwd: workdir,
  });
  await run.attach(VibeRoster, { value: roster, dispose: () => roster.dispose(), describe: () => roster.describe() });
  await run.attach(VibeMode, { value: { defaultWorkerTier: workers.fast === undefined ? "good" : "fast" } });
}
