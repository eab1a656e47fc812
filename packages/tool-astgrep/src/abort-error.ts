import { ToolError } from "@runbound/tool-kit";

/**
 * The error a search answers with once its signal aborted. The host aborts with a ToolError that
 * already says why (`timeout` when the call's budget ran out, `cancelled` when the caller or the run
 * stopped it), so that error is the answer; any other reason is a caller's cancel, except the DOM
 * `TimeoutError` of `AbortSignal.timeout()`.
 */
export function abortError(signal: AbortSignal): ToolError {
  const reason: unknown = signal.reason;
  if (ToolError.isInstance(reason)) return reason;
  const timedOut = reason instanceof Error && reason.name === "TimeoutError";
  return new ToolError({
    code: timedOut ? "timeout" : "cancelled",
    message: timedOut
      ? "The search ran out of time before it finished. Narrow `path` or the pattern, or retry with a larger budget."
      : "The search was cancelled before it finished. Narrow `path` or retry.",
    cause: reason,
  });
}

/** @throws the signal's {@link abortError} when it has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortError(signal);
}
