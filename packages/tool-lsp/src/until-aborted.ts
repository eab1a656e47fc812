import { abortedError } from "@runbound/tool-kit";

/**
 * Wait for `work` until `signal` aborts, then reject with a typed `timeout`/`cancelled` error while
 * `work` goes on: for shared work (a server start) that one impatient caller must not cancel for all.
 */
export async function untilAborted<T>(work: Promise<T>, signal: AbortSignal, label: string): Promise<T> {
  const aborted = (): Error =>
    abortedError(signal, {
      timeout: `${label} took longer than this call's budget; it goes on in the background. Call again in a moment, or check \`lsp\` \`status\`.`,
      cancelled: `${label} was still going on when this call was cancelled; it goes on in the background.`,
    });
  if (signal.aborted) throw aborted();
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stopped]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}
