/**
 * How many requests one server is sent at once for a list of files: it answers one at a time, but a
 * short queue saves the round trips — and a signal shared by a few requests, not hundreds, keeps its
 * listeners few.
 */
const concurrency = 4;

/** Run `work` for each item, a few at a time, until done or `signal` aborts. @returns the items not done. */
export async function eachWithin<T>(
  items: readonly T[],
  signal: AbortSignal,
  work: (item: T) => Promise<void>,
): Promise<T[]> {
  const queue = [...items];
  const left = new Set(items);
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined && !signal.aborted; item = queue.shift()) {
      await work(item);
      if (!signal.aborted) left.delete(item);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return items.filter((item) => left.has(item));
}
