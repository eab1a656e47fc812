import type { AskCard, AskOutcome, AskPort } from "./ask-port.js";
import { abortReasonText, withdrawnOutcome } from "./withdrawn-outcome.js";

/** How a presented card ended: a port's outcome, or `no_operator` when nobody could be asked. */
export type PresentedOutcome = AskOutcome | { status: "no_operator" };

/** Settings of {@link presentCard}. */
export interface PresentSettings {
  /** The run or the call stopping; the card is withdrawn. */
  signal: AbortSignal;
  /** How long the operator has; past it the card is withdrawn and the outcome is `timed_out`. */
  timeoutMs: number;
}

// Node fires a longer timer at once; a longer budget is cut to it (about 24.8 days).
const longestTimerMs = 2 ** 31 - 1;

/**
 * Show a card on a port and wait for its outcome within a budget. Answers `no_operator` at once when
 * the port has nobody, and settles as soon as the budget passes or `signal` aborts even if the port
 * ignores its own signal: no caller ever waits longer than the budget.
 */
export async function presentCard(port: AskPort, card: AskCard, settings: PresentSettings): Promise<PresentedOutcome> {
  if (!port.operatorPresent()) return { status: "no_operator" };
  if (settings.signal.aborted) return withdrawnOutcome(settings.signal);
  const controller = new AbortController();
  // Set before the port hears of the abort, so its own "withdrawn" never hides a timeout.
  let stoppedAs: AskOutcome | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<AskOutcome>((resolve) => {
    const stop = (outcome: AskOutcome, reason: unknown): void => {
      stoppedAs = outcome;
      controller.abort(reason);
      resolve(outcome);
    };
    timer = setTimeout(
      () => stop({ status: "timed_out" }, new Error(`no answer came within ${settings.timeoutMs} ms`)),
      Math.min(settings.timeoutMs, longestTimerMs),
    );
    onAbort = () => stop(withdrawnOutcome(settings.signal), settings.signal.reason);
    settings.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const answered = port
      .ask(card, { signal: controller.signal })
      .catch((error: unknown): AskOutcome => ({ status: "failed", reason: abortReasonText(error) }));
    const outcome = await Promise.race([answered, stopped]);
    return stoppedAs ?? outcome;
  } finally {
    clearTimeout(timer);
    settings.signal.removeEventListener("abort", onAbort!);
  }
}
