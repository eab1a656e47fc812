import { listProcesses } from "@runbound/runtime-kit";

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * SIGKILL `pids` now, each with the process group it leads (lldb-server and dlv start the debuggee
 * as a group leader, so its own children go with it), before anything is awaited: for a host that
 * may exit right after asking.
 */
export function killGroupsNow(pids: readonly number[]): void {
  for (const pid of pids) {
    if (pid <= 1 || pid === process.pid) continue;
    kill(-pid);
    kill(pid);
  }
}

/**
 * SIGKILL `pids` and everything below them, then wait at most `budgetMs` until none runs. A zombie
 * counts as gone: it runs nothing, and its new parent (pid 1 after re-parenting) reaps it.
 */
export async function killProcesses(pids: readonly number[], budgetMs: number): Promise<void> {
  if (pids.length === 0) return;
  const rows = await listProcesses();
  const targets = new Set(pids.filter((pid) => pid > 1 && pid !== process.pid));
  // Descendants first found from the table as it is now (a debuggee's own children).
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (targets.has(row.ppid) && !targets.has(row.pid) && row.pid !== process.pid) {
        targets.add(row.pid);
        grew = true;
      }
    }
  }
  for (const pid of targets) kill(pid);
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const running = (await listProcesses()).filter((row) => targets.has(row.pid) && row.state !== "Z");
    if (running.length === 0 || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
