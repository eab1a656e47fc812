import { readFile } from "node:fs/promises";

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
