import type { AskOutcome } from "./ask-port.js";

/** Why a signal aborted, in words. */
export function abortReasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "the asker stopped waiting";
}

/** The outcome of a card whose asker stopped waiting (`signal` aborted). */
export function withdrawnOutcome(signal: AbortSignal): AskOutcome {
  return { status: "withdrawn", reason: abortReasonText(signal.reason) };
}
