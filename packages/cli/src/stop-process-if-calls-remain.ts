import type { Run } from "@runbound/runner-adapter";

/**
 * How long a run whose client has gone waits for its aborted calls, and then for each resource's
 * dispose, before the process ends (DESIGN §5 and issue 6: exit within a second of the client leaving).
 */
export const CLIENT_GONE_GRACE_MS = 250;

/**
 * End this process at once if a call of its closed run is still active. Such a call may be native
 * work on libuv's thread pool (ast-grep parsing a big tree), and a normal exit waits for it: libuv
 * joins its threads at exit, so the process would live on, busy, until that work ends. The run is
 * closed and its resources disposed, so nothing it owned is left behind; SIGKILL skips the join.
 */
export function stopProcessIfCallsRemain(run: Run): void {
  if (run.activeCalls > 0) process.kill(process.pid, "SIGKILL");
}
