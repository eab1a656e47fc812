import { readFile } from "node:fs/promises";
import { listProcessGroup } from "./list-processes.js";

/**
 * The resident memory (VmRSS) of a process in KiB, read from `/proc/<pid>/status`; `undefined` where
 * there is no /proc (macOS) or the process is gone. For status views, not for decisions.
 */
export async function readResidentMemoryKiB(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * The resident memory of a whole process group in KiB (a language server and the helpers it started,
 * e.g. typescript-language-server and its tsserver processes); `undefined` when none could be read.
 */
export async function readGroupResidentMemoryKiB(pgid: number): Promise<number | undefined> {
  const sizes = await Promise.all((await listProcessGroup(pgid)).map((row) => readResidentMemoryKiB(row.pid)));
  const known = sizes.filter((size): size is number => size !== undefined);
  return known.length === 0 ? undefined : known.reduce((sum, size) => sum + size, 0);
}
