/** The shared memory between the kernel's main thread and its watchdog (see {@link javascriptKernelWatchdog}). */
export interface WatchdogShared {
  /** `[0]`: Date.now() of the main thread's last heartbeat while a cell runs. */
  heartbeat: SharedArrayBuffer;
  /** Int32 `[0]`: the running cell's id (0 when idle); `[1]`: the id of the cell an interrupt waits for (0: none). */
  state: SharedArrayBuffer;
}

/**
 * The kernel's watchdog thread (a worker inside the kernel process). It alone reads the kernel's stdin,
 * because the main thread, which runs the cells, cannot read anything while a cell spins in a
 * synchronous loop. Frames go on to the main thread, except an interrupt: when the main thread's
 * heartbeat is stale it is stuck in JavaScript, and the watchdog stops that code through an inspector
 * session connected to the main thread (`Runtime.terminateExecution`), which V8 delivers as an
 * interrupt of the running code while variables stay defined. A fresh heartbeat means the cell waits
 * on an `await` instead, which only the main thread can give up on.
 *
 * This function runs from its source text (see kernel-program.ts), so it may use no import and
 * nothing outside its own body.
 */
export function javascriptKernelWatchdog(): void {
  const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
  const { Session } = process.getBuiltinModule("node:inspector");
  const { Socket } = process.getBuiltinModule("node:net");
  const shared = workerData as WatchdogShared;
  const heartbeat = new BigInt64Array(shared.heartbeat);
  const state = new Int32Array(shared.state);
  const port = parentPort!;
  // Longer than a few missed 10 ms beats of a loaded machine, short enough to stop a loop at once.
  const stuckAfterMs = 50;
  const session = new Session();
  session.connectToMainThread();
  let terminating = false;
  // The last cell whose execute frame went on to the main thread: an interrupt for it may arrive
  // before the main thread has started it (a host interrupting on the cell's first output).
  let forwarded = 0;

  function mainThreadStuck(): boolean {
    return Date.now() - Number(Atomics.load(heartbeat, 0)) > stuckAfterMs;
  }

  // Runs until the main thread has taken the interrupt; a cell that only just started has a fresh
  // heartbeat, so the check repeats until the beat goes stale or the main thread answers.
  function pressInterrupt(cell: number): void {
    // The main thread clears the flag when it settles the cell (or starts a later one); until it has
    // started this one, wait.
    if (Atomics.load(state, 1) !== cell) return;
    if (Atomics.load(state, 0) === cell && !terminating && mainThreadStuck()) {
      terminating = true;
      session.post("Runtime.terminateExecution", () => {
        terminating = false;
      });
    }
    setTimeout(pressInterrupt, 10, cell);
  }

  function receive(frame: { t: string; cell?: number }): void {
    if (frame.t !== "interrupt") {
      if (frame.t === "execute" && frame.cell !== undefined) forwarded = frame.cell;
      port.postMessage(frame);
      return;
    }
    if (frame.cell !== forwarded) return;
    Atomics.store(state, 1, frame.cell);
    port.postMessage(frame);
    pressInterrupt(frame.cell);
  }

  const input = new Socket({ fd: 0, readable: true, writable: false });
  input.setEncoding("utf8");
  let pending = "";
  input.on("data", (chunk: string) => {
    pending += chunk;
    let end = pending.indexOf("\n");
    while (end >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.trim() !== "") receive(JSON.parse(line) as { t: string; cell?: number });
      end = pending.indexOf("\n");
    }
  });
  // The host closed our stdin: it is gone or disposing, so the kernel ends; a main thread that does
  // not get to its exit (a spinning cell, a cell's own signal handlers) is killed a moment later.
  input.on("close", () => {
    port.postMessage({ t: "shutdown" });
    setTimeout(() => process.kill(process.pid, "SIGKILL"), 1_000);
  });
}
