// Kept on globalThis under a Symbol.for key so two installed copies of tool-kit (a plugin's and the
// host's) still serialize writes to the same file.
const registryKey = Symbol.for("runbound.tool-kit.path-locks");
const globalRegistry = globalThis as { [registryKey]?: Map<string, Promise<void>> };
const tails = (globalRegistry[registryKey] ??= new Map<string, Promise<void>>());

/**
 * Run `work` while holding a lock on every path, so two writers in this process cannot both pass a
 * compare-then-write check against the same old content (a lost update). Locks are taken all at once,
 * in call order, so two callers waiting on overlapping paths can never deadlock.
 */
export async function withPathLocks<T>(paths: readonly string[], work: () => Promise<T>): Promise<T> {
  const unique = [...new Set(paths)];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const previous = unique.map((path) => tails.get(path) ?? Promise.resolve());
  for (const path of unique) tails.set(path, held);
  try {
    await Promise.all(previous);
    return await work();
  } finally {
    release();
    for (const path of unique) if (tails.get(path) === held) tails.delete(path);
  }
}
