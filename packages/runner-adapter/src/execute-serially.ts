import type { ToolResult } from "@runbound/tool-kit";
import type { CallExecution } from "./execute-call.js";
import type { SerialQueue } from "./serial-queue.js";
import { withBudget } from "@runbound/runtime-kit";

/** How long {@link executeSerially} holds the next call back, and what ends the wait early. */
export interface SerialSettings {
  /** Longest wait for a stopped call to really end before the next call of its tool starts. */
  graceMs: number;
  /** Ends every wait at once (the run closed: no next call will start). */
  signal: AbortSignal;
}

/**
 * Run a call of a tool that is not parallel-safe: the caller is answered as soon as the call ends or
 * times out, but the next call of that tool starts only once this one has really stopped (or the
 * grace passed), so a timed-out call that ignores its signal cannot overlap the next one.
 */
export function executeSerially(
  queue: SerialQueue,
  key: string,
  start: () => CallExecution,
  settings: SerialSettings,
): Promise<ToolResult> {
  return new Promise((resolve) => {
    void queue.run(key, async () => {
      const call = start();
      resolve(await call.result);
      // withBudget clears its timer as soon as the call stops, so nothing is left keeping the process alive.
      await withBudget(() => call.settled, {
        timeoutMs: settings.graceMs,
        signal: settings.signal,
        label: `The end of \`${key}\``,
      }).result.catch(() => undefined);
    });
  });
}
