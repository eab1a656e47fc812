import { abortedError, type ToolError } from "@runbound/tool-kit";

/** The error a search answers once its signal aborted (the host's own reason when it gave one). */
export function abortError(signal: AbortSignal): ToolError {
  return abortedError(signal, {
    timeout:
      "The search ran out of time before it finished. Narrow `path` or the pattern, or retry with a larger budget.",
    cancelled: "The search was cancelled before it finished. Narrow `path` or retry.",
  });
}

/** @throws the signal's {@link abortError} when it has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortError(signal);
}
