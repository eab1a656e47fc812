import { readdir, readFile } from "node:fs/promises";

/**
 * The processes whose last argument is `marker`: how a test names a program it expects to be gone
 * (a detached sleeper a sandboxed program left) and finds it in the process table whatever its pid
 * inside a namespace was. Programs that only mention the marker in a longer argument do not count.
 */
export async function listProcessesByLastArgument(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "");
    if (
      cmdline
        .split("\0")
        .filter((part) => part !== "")
        .at(-1) === marker
    )
      pids.push(Number(name));
  }
  return pids;
}

/** Wait at most `budgetMs` until no process has `marker` as its last argument; the ones left, if any. */
export async function untilNoProcessWithLastArgument(marker: string, budgetMs: number): Promise<number[]> {
  const deadline = Date.now() + budgetMs;
  let left = await listProcessesByLastArgument(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = await listProcessesByLastArgument(marker);
  }
  return left;
}
