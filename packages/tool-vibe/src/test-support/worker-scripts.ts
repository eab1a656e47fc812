import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { listProcessGroup, type ProcessRow } from "@runbound/runtime-kit/testing";
import type { VibeRosterInstance, WorkerSnapshot } from "../vibe-roster.js";
import type { WorkerCommand } from "../worker-command.js";

/** A worker command running one of the scripts in ../__fixtures__/workers with this Node. */
export function workerScript(
  name: "report-brief" | "sleep-then-answer" | "fail-loudly" | "stubborn-tree" | "ask-caller",
  ...args: string[]
): WorkerCommand {
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL(`../__fixtures__/workers/${name}.mjs`, import.meta.url)), ...args],
  };
}

/** Poll the roster until the worker's snapshot satisfies `predicate` (a generous budget: the machine is shared). */
export async function untilWorker(
  roster: VibeRosterInstance,
  id: string,
  predicate: (snapshot: WorkerSnapshot) => boolean,
  budgetMs = 20_000,
): Promise<WorkerSnapshot> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const snapshot = roster.list().find((worker) => worker.id === id);
    if (snapshot !== undefined && predicate(snapshot)) return snapshot;
    if (Date.now() > deadline)
      throw new Error(
        `Worker \`${id}\` did not reach the expected state within ${budgetMs} ms; last seen: ${JSON.stringify(snapshot)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a process id is in the process table (zombies included). */
export function processExists(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state …": a zombie (Z) has exited; only its parent (often pid 1 by then) can reap it.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * The live members of a process group. A killed grandchild is re-parented to pid 1 and stays a zombie
 * until pid 1 reaps it, which a container's init may do late: it has exited, so it is not counted.
 */
export async function liveGroupMembers(pgid: number): Promise<ProcessRow[]> {
  return (await listProcessGroup(pgid)).filter((row) => row.state !== "Z");
}

/** The pids a worker script printed as `<word> <pid>` pairs, e.g. `worker 12 grandchild 13`. */
export function printedPids(output: string): Record<string, number> {
  const pids: Record<string, number> = {};
  for (const [, name, pid] of output.matchAll(/([a-z]+) (\d+)/g)) pids[name!] = Number(pid);
  return pids;
}
