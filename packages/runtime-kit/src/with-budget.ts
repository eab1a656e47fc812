import { ToolError } from "@runbound/tool-kit";
import { signalWithDeadline } from "./signal-with-deadline.js";
import { untilAborted } from "./until-aborted.js";

/** Settings of {@link withBudget}. */
export interface BudgetSettings {
  /** Milliseconds before the work is aborted and a `timeout` error answers. */
  timeoutMs: number;
  /** An outer signal (caller cancel, run close); its abort answers `cancelled`. */
  signal: AbortSignal;
  /** What is being waited for, for messages, e.g. "Tool `lsp`". */
  label: string;
}

/**
 * Run `work` with its own AbortSignal and answer as soon as it settles, times out, or the outer signal
 * aborts — never later. Work that ignores its signal keeps running in the background, but no caller
 * waits for it (DESIGN §5: every wait has a budget).
 *
 * @returns the work's result and a promise that settles when the work itself has settled.
 */
export function withBudget<T>(
  work: (signal: AbortSignal) => Promise<T>,
  settings: BudgetSettings,
): { result: Promise<T>; settled: Promise<void> } {
  const timeout = `${settings.label} did not finish within ${settings.timeoutMs} ms and was stopped. Narrow the request or try again.`;
  const cancelled = `${settings.label} was cancelled before it finished.`;
  const deadline = signalWithDeadline(settings.signal, settings.timeoutMs, {
    timeout: () => new ToolError({ code: "timeout", message: timeout }),
    aborted: () => new ToolError({ code: "cancelled", message: cancelled }),
  });
  // Work that was cancelled before it started must not start at all (a write the caller was told did not happen).
  const running = Promise.resolve().then(() => {
    if (deadline.signal.aborted) throw deadline.signal.reason;
    return work(deadline.signal);
  });
  const result = untilAborted(running, deadline.signal, { timeout, cancelled }).finally(() => deadline.dispose());
  const settled = running.then(
    () => undefined,
    () => undefined,
  );
  return { result, settled };
}
