import type { Run } from "./create-run.js";
import { withBudget } from "@runbound/runtime-kit";

/** Settings of {@link attachDefaultResources}. */
export interface DefaultResourcesSettings {
  /** The run's working directory (absolute, symlinks resolved). */
  workdir: string;
  /** Budget of each provider's `create`; default 30 000 ms. */
  timeoutMs?: number;
  /** Stops creating resources. */
  signal?: AbortSignal;
}

/**
 * Attach every plugin's default resources for a workdir, skipping resources already attached. A
 * provider that throws or runs out of time does not stop the others; its tools stay unregistered,
 * and a call to one of them names the provider's failure.
 *
 * @returns resource id → why its provider could not create it.
 */
export async function attachDefaultResources(
  run: Run,
  settings: DefaultResourcesSettings,
): Promise<Map<string, string>> {
  const failures = new Map<string, string>();
  for (const provider of run.plugins.flatMap((plugin) => plugin.resourceProviders)) {
    if (run.isAttached(provider.key)) continue;
    try {
      const instance = await withBudget(async (signal) => provider.create({ workdir: settings.workdir, signal }), {
        timeoutMs: settings.timeoutMs ?? 30_000,
        signal: settings.signal ?? new AbortController().signal,
        label: `Creating resource \`${provider.key.id}\``,
      }).result;
      await run.attach(provider.key, instance);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      failures.set(provider.key.id, reason);
      run.noteUnattached(provider.key, `its provider failed: ${reason}`);
    }
  }
  return failures;
}
