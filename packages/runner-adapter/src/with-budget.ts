import { ToolError } from "@runbound/tool-kit";

/** Settings of {@link withBudget}. */
export interface BudgetSettings {
  /** Milliseconds before the work is aborted and a `timeout` error answers. */
  timeoutMs: number;
  /** An outer signal (caller cancel, run close); its abort answers `cancelled`. */
  signal: AbortSignal;
  /** What is being waited for, for messages, e.g. "Tool `lsp`". */
  label: string;
}

// Node fires a timer longer than this at once; longer budgets are cut to it (about 24.8 days).
const longestTimerMs = 2 ** 31 - 1;

/**
 * Run `work` with its own AbortSignal and answer as soon as it settles, times out, or the outer signal
 * aborts — never later. Work that ignores its signal keeps running in the background, but no caller
 * waits for it (DESIGN §5: every wait has a budget).
 *
 * @returns the work's result and a promise that settles when the work itself has settled.
 */
export function withBudget<T>(work: (signal: AbortSignal) => Promise<T>, settings: BudgetSettings): { result: Promise<T>; settled: Promise<void> } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onOuterAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ToolError({
        code: "timeout",
        message: `${settings.label} did not finish within ${settings.timeoutMs} ms and was stopped. Narrow the request or try again.`,
      });
      controller.abort(error);
      reject(error);
    }, Math.min(settings.timeoutMs, longestTimerMs));
    onOuterAbort = () => {
      const error = new ToolError({ code: "cancelled", message: `${settings.label} was cancelled before it finished.` });
      controller.abort(error);
      reject(error);
    };
    if (settings.signal.aborted) onOuterAbort();
    else settings.signal.addEventListener("abort", onOuterAbort, { once: true });
  });
  // Work that was cancelled before it started must not start at all (a write the caller was told did not happen).
  const running = Promise.resolve().then(() => {
    if (controller.signal.aborted) throw controller.signal.reason;
    return work(controller.signal);
  });
  const cleanup = (): void => {
    clearTimeout(timer);
    if (onOuterAbort !== undefined) settings.signal.removeEventListener("abort", onOuterAbort);
  };
  const result = Promise.race([running, stop]).finally(cleanup);
  const settled = running.then(
    () => undefined,
    () => undefined,
  );
  // The race above observes `stop`; this keeps an unobserved rejection from surfacing when work wins.
  stop.catch(() => undefined);
  return { result, settled };
}
