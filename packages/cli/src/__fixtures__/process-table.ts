import { readdirSync, readFileSync } from "node:fs";

// /proc/<pid>/stat is "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ")".
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live process: in the process table and not a zombie (a zombie has exited, only its parent has not reaped it). */
export function isRunning(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== "Z";
}

/** Every live process below `pid` (children, grandchildren, …), read from /proc. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields === undefined || fields[0] === "Z") continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    for (const child of children.get(pending.pop()!) ?? []) {
      found.push(child);
      pending.push(child);
    }
  }
  return found;
}

/** Milliseconds until `pid` stops running, polling every 5 ms; `undefined` when it still runs after `limitMs`. */
export async function millisecondsUntilExit(pid: number, limitMs: number): Promise<number | undefined> {
  const start = performance.now();
  while (isRunning(pid)) {
    if (performance.now() - start > limitMs) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - start;
}

/**
 * Live processes whose environment holds `name=value`: everything a child process started, in any
 * process group or session, inherits it (language servers move to their own group, so the tree and
 * the group cannot find them once their parent is gone).
 */
export function processesWithEnvironment(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || !isRunning(Number(entry))) continue;
    let environment: string;
    try {
      environment = readFileSync(`/proc/${entry}/environ`, "latin1");
    } catch {
      continue;
    }
    if (environment.split("\0").includes(needle)) found.push(Number(entry));
  }
  return found;
}
