import type { CellOutput, CellStatus } from "../kernel.js";

/**
 * The frames the Pyodide kernel's child process and its parent exchange, one JSON object per line
 * on the child's own stdin/stdout (no socket, no port).
 */

/** What the child needs to start; the first line the parent writes. */
export interface StartFrame {
  type: "start";
  /** The run's working directory, mounted at the same path inside Pyodide and made its cwd. */
  workdir: string;
  /** The folder of the `pyodide` package (wasm, stdlib zip, lockfile). */
  pyodideDirectory: string;
  /** The offline wheels folder, or undefined when the kernel has none. */
  packageDirectory: string | undefined;
  /** The Python sources to load after Pyodide, in order: [module name, source]. */
  modules: Array<[name: string, source: string]>;
  /** A memory snapshot to start from, or undefined for a cold load. */
  snapshotPath: string | undefined;
}

/** Instead of a start frame: load Pyodide, import {@link SNAPSHOT_IMPORTS}, write a memory snapshot, exit. */
export interface SnapshotFrame {
  type: "snapshot";
  pyodideDirectory: string;
  /** Where to write it (through a temporary file and a rename, so a reader never sees half of one). */
  snapshotPath: string;
  /** Python modules to import into the snapshot too (the cell executor): [module name, source]. */
  modules: Array<[name: string, source: string]>;
}

/**
 * The standard modules a snapshot holds already imported: those the cell executor and the kernel's
 * own module import. A change of this list (or of the modules put in the snapshot) names a new file.
 */
export const SNAPSHOT_IMPORTS =
  "ast asyncio base64 errno io json linecache math os random re shlex sys threading time tokenize traceback types warnings importlib.metadata";

/**
 * The first line the parent writes: the channel's secret. The child's main thread starts every line it
 * writes with it and a space, and never hands it to the worker that runs Python, so a cell that
 * reaches the worker's `process.stdout` cannot write a frame the parent obeys.
 */
export interface ChannelFrame {
  type: "channel";
  secret: string;
}

/** Parent → child: the channel frame, then a start or snapshot frame, then the rest. */
export type ParentFrame =
  | ChannelFrame
  | StartFrame
  | SnapshotFrame
  | { type: "execute"; cell: number; code: string }
  | { type: "interrupt"; cell: number }
  | { type: "tool_result"; call: number; result: unknown };

/** Child → parent. */
export type ChildFrame =
  /** `readyMs`: from the worker's start to accepting cells; `loadMs`: the part spent in loadPyodide. */
  | { type: "ready"; pythonVersion: string; readyMs: number; loadMs: number; fromSnapshot: boolean }
  | { type: "snapshot_written"; bytes: number; milliseconds: number }
  /** The start frame's snapshot cannot be used (`reason` says why); the kernel loads Pyodide without it. */
  | { type: "snapshot_rejected"; reason: string }
  | { type: "output"; cell: number; output: CellOutput }
  | { type: "tool_call"; cell: number; call: number; name: string; input: unknown }
  | { type: "done"; cell: number; status: CellStatus }
  /** The child cannot go on (Pyodide failed to load or fatally failed); it exits after this frame. */
  | { type: "fatal"; message: string };

/**
 * The child's main thread ⇄ its worker (which runs Pyodide): the worker posts `ChildFrame`s, the
 * main thread posts the rest. Interrupts and bridge wake-ups go through {@link SignalSlots} instead,
 * because the worker's event loop is blocked while Python runs.
 */
export type WorkerFrame = { type: "execute"; cell: number; code: string } | { type: "interrupt"; cell: number };

/**
 * Indices into the Int32Array over the SharedArrayBuffer the main thread and the worker share. Pyodide
 * reads slot 0 as its interrupt buffer (2 = SIGINT); slot 1 is a counter the main thread bumps (and
 * notifies) whenever the worker may have something to wake up for: a bridge answer or an interrupt.
 */
export const SignalSlots = { interrupt: 0, wake: 1 } as const;

/** The value of the interrupt slot that makes Pyodide raise KeyboardInterrupt. */
export const SIGINT_VALUE = 2;
