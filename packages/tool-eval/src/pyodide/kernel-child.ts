import { createInterface } from "node:readline";
import { MessageChannel, Worker } from "node:worker_threads";
import type { KernelWorkerData } from "./kernel-worker.js";
import {
  SIGINT_VALUE,
  SignalSlots,
  type ChildFrame,
  type ParentFrame,
  type SnapshotFrame,
  type StartFrame,
} from "./kernel-protocol.js";

// The Pyodide kernel's child process, started under Node's permission model. Its main thread only
// relays frames: Python runs in a worker, so this thread stays free to set the interrupt flag and to
// wake the worker when a bridge answer arrives, while the worker is blocked in Python.

// Set by the parent's first line; a closure of this thread, which no cell code runs in.
let marker = "";
const write = (frame: ChildFrame): void => {
  process.stdout.write(`${marker}${JSON.stringify(frame)}\n`);
};

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
// The parent is gone when its end of stdin closes: nothing is left to answer to.
lines.once("close", () => process.exit(0));

const signals = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
const bridge = new MessageChannel();
let worker: Worker | undefined;
let runningCell: number | undefined;

function wake(): void {
  Atomics.add(signals, SignalSlots.wake, 1);
  Atomics.notify(signals, SignalSlots.wake);
}

function startWorker(start: StartFrame | SnapshotFrame): Worker {
  const data: KernelWorkerData = { start, signals, toolResults: bridge.port2 };
  const started = new Worker(new URL("./kernel-worker.js", import.meta.url), {
    workerData: data,
    transferList: [bridge.port2],
  });
  started.on("message", (frame: ChildFrame) => {
    if (frame.type === "done") runningCell = undefined;
    write(frame);
  });
  started.on("error", (error) => {
    write({ type: "fatal", message: `the Pyodide worker crashed: ${error.message}` });
    process.exit(1);
  });
  started.on("exit", (code) => process.exit(code));
  return started;
}

// Python clears the flag when it raises KeyboardInterrupt. Code that catches and drops it (a broad
// `except BaseException` in a library) leaves the cell running, so while the cell still runs with the
// flag cleared the request is made again, as a second Ctrl-C would.
const REPEAT_INTERRUPT_MS = 1_000;

function requestInterrupt(cell: number): void {
  if (cell !== runningCell) return;
  Atomics.store(signals, SignalSlots.interrupt, SIGINT_VALUE);
  wake();
  // Seen by the worker only once its thread is free, i.e. while the cell waits at an await.
  worker?.postMessage({ type: "interrupt", cell });
  repeatWhileRunning(cell);
}

// While the flag is still set (Python is in C code that does not check it) the check waits another
// round rather than ending, so a KeyboardInterrupt swallowed later is still answered by a repeat.
function repeatWhileRunning(cell: number): void {
  setTimeout(() => {
    if (cell !== runningCell) return;
    if (Atomics.load(signals, SignalSlots.interrupt) === 0) requestInterrupt(cell);
    else repeatWhileRunning(cell);
  }, REPEAT_INTERRUPT_MS).unref();
}

lines.on("line", (line) => {
  const frame = JSON.parse(line) as ParentFrame;
  switch (frame.type) {
    case "channel":
      marker = `${frame.secret} `;
      return;
    case "start":
    case "snapshot":
      worker ??= startWorker(frame);
      return;
    case "execute":
      // Cleared here, before the worker sees the cell, so an interrupt meant for an earlier cell that
      // Python never noticed cannot stop this one, and one sent for this cell is never lost.
      Atomics.store(signals, SignalSlots.interrupt, 0);
      runningCell = frame.cell;
      worker?.postMessage({ type: "execute", cell: frame.cell, code: frame.code });
      return;
    case "interrupt":
      requestInterrupt(frame.cell);
      return;
    case "tool_result":
      bridge.port1.postMessage({ call: frame.call, result: frame.result });
      wake();
      return;
  }
});
