import { abortedError } from "@runbound/tool-kit";

/**
 * Wait for `work` until `signal` aborts, then reject with a typed `timeout`/`cancelled` error
 * ({@link abortedError}: the signal's own ToolError when it has one, else `messages`) while `work`
 * goes on: for shared work (a server start) that one impatient caller must not cancel for all.
 */
export async function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  messages: { timeout: string; cancelled: string },
): Promise<T> {
  if (signal.aborted) throw abortedError(signal, messages);
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortedError(signal, messages));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stopped]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}
