import { readdir, readFile } from "node:fs/promises";

/** One row of the process table, as /proc shows it. */
export interface ProcessRow {
  /** Process id. */
  pid: number;
  /** Parent process id. */
  ppid: number;
  /** Process-group id. */
  pgid: number;
  /** State letter: `R` running, `S` sleeping, `Z` zombie, … */
  state: string;
  /** The program name (`comm`, at most 15 characters). */
  command: string;
}

// /proc/<pid>/stat is "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses, so the
// fields after it are found from the last ')'.
function parseStat(text: string): ProcessRow | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  const [state, ppid, pgid] = text.slice(close + 2).split(" ");
  return {
    pid: Number(text.slice(0, open).trim()),
    ppid: Number(ppid),
    pgid: Number(pgid),
    state: state ?? "?",
    command: text.slice(open + 1, close),
  };
}

/** Every process on the machine (Linux only; an empty list where there is no /proc). */
export async function listProcesses(): Promise<ProcessRow[]> {
  const names = await readdir("/proc").catch(() => [] as string[]);
  const rows = await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map((name) => readFile(`/proc/${name}/stat`, "utf8").then(parseStat, () => undefined)),
  );
  return rows.filter((row): row is ProcessRow => row !== undefined);
}

/** The processes below `pid` (children, grandchildren, …), not `pid` itself. */
export async function listDescendants(pid: number): Promise<ProcessRow[]> {
  const rows = await listProcesses();
  const found: ProcessRow[] = [];
  const parents = [pid];
  while (parents.length > 0) {
    const parent = parents.pop()!;
    for (const row of rows) {
      if (row.ppid === parent && row.pid !== pid) {
        found.push(row);
        parents.push(row.pid);
      }
    }
  }
  return found;
}

/** The processes in process group `pgid` — where an owned process's helpers stay even after re-parenting. */
export async function listProcessGroup(pgid: number): Promise<ProcessRow[]> {
  return (await listProcesses()).filter((row) => row.pgid === pgid);
}
