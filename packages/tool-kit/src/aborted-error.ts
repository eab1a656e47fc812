import { ToolError } from "./tool-error.js";

/**
 * The error a call answers once its signal aborted. A host aborts with a ToolError that already says
 * why (`timeout` when the budget ran out, `cancelled` when the caller or the run stopped it), so that
 * error is the answer; otherwise a `TimeoutError` (as `AbortSignal.timeout()` gives) is `timeout` and
 * anything else a caller's `cancelled`, worded by `messages`.
 */
export function abortedError(signal: AbortSignal, messages: { timeout: string; cancelled: string }): ToolError {
  const reason: unknown = signal.reason;
  if (ToolError.isInstance(reason)) return reason;
  const timedOut = reason instanceof Error && reason.name === "TimeoutError";
  return new ToolError({
    code: timedOut ? "timeout" : "cancelled",
    message: timedOut ? messages.timeout : messages.cancelled,
    cause: reason,
  });
}
