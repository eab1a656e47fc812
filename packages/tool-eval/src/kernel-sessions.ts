import type { Kernel, KernelFactoryInstance, KernelLanguage } from "./kernel.js";

/** The live kernel of one language in one run, and what the next answer must say about the last one. */
export interface KernelSlot {
  kernel: Kernel | undefined;
  /** Set when the previous kernel went away with its state (died, killed); said once, then cleared. */
  lostState: string | undefined;
}

// Kernels belong to a run: keyed by the run's factory (a host attaches one per run) and the run's id,
// so a factory shared by two runs still gives each run its own kernels.
const sessions = new WeakMap<KernelFactoryInstance, Map<string, Map<KernelLanguage, KernelSlot>>>();

/** The slot of `language` in run `runId` on `factory`, created empty on first use. */
export function kernelSlot(factory: KernelFactoryInstance, runId: string, language: KernelLanguage): KernelSlot {
  let runs = sessions.get(factory);
  if (runs === undefined) sessions.set(factory, (runs = new Map()));
  let languages = runs.get(runId);
  if (languages === undefined) runs.set(runId, (languages = new Map()));
  let slot = languages.get(language);
  if (slot === undefined) languages.set(language, (slot = { kernel: undefined, lostState: undefined }));
  return slot;
}
