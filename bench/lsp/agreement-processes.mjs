// Cleanup checks read /proc directly: after the run closes, no process the benchmark started (a
// language server, tsserver, a checker, a CPU hog) may be left, and neither may anything running in
// a temporary project copy.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const read = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** Live processes as { pid, ppid, command, cwd }. */
function processes() {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    if (stat === undefined) continue;
    // The command name may hold spaces and parentheses: the fields after the last ")" are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") continue;
    let cwd;
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      cwd = undefined;
    }
    found.push({
      pid: Number(entry),
      ppid: Number(fields[1]),
      command: (read(`/proc/${entry}/cmdline`) ?? "").replace(/\0/g, " ").trim(),
      cwd,
    });
  }
  return found;
}

/**
 * Processes descending from this one, or whose pid is in `pids`, or whose cwd/command names one of
 * `paths` — except `ignore` (the CPU hogs, which outlive each language on purpose).
 */
export function leftovers({ pids = [], paths = [], ignore = [] } = {}) {
  const all = processes();
  const descendants = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of all) {
      if (!descendants.has(entry.ppid) || descendants.has(entry.pid)) continue;
      descendants.add(entry.pid);
      grew = true;
    }
  }
  descendants.delete(process.pid);
  return all
    .filter((entry) => !ignore.includes(entry.pid))
    .filter(
      (entry) =>
        descendants.has(entry.pid) ||
        pids.includes(entry.pid) ||
        paths.some((path) => entry.cwd?.startsWith(path) || entry.command.includes(path)),
    );
}

/** Wait up to `ms` for {@link leftovers} to be empty; returns what is still there. */
export async function waitForNoLeftovers(scope, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = leftovers(scope);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
