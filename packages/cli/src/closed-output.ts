import type { Writable } from "node:stream";

/**
 * Whether a write failed because no one reads the stream any more: the reader closed the pipe
 * (`EPIPE`, as `runbound call … | head -1` or `| true` do), or the stream was already destroyed by
 * that first failure when a later write came.
 */
export function isClosedOutputError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED";
}

/**
 * Keep a closed output from ending the process with a stack trace: a failed write also emits
 * `error` on the stream, which throws when no one listens (issue 22, item 7). The failed write's own
 * callback still reports the error, so the command sees it and ends quietly (see {@link isClosedOutputError}).
 * The listener stays: the event comes a tick after the failed write, possibly after the command returned.
 */
export function tolerateClosedOutput(...streams: Writable[]): void {
  const ignore = (): void => undefined;
  for (const stream of streams) stream.on("error", ignore);
}
