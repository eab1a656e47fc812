import type { Placement } from "@runbound/runtime-kit";
import { readdir, rm } from "node:fs/promises";
import { abortedError, ToolError, type ToolResult } from "@runbound/tool-kit";
import type { CellRequest, CellStatus, Kernel, KernelExit, KernelStartOptions } from "./kernel.js";
import {
  pyodideDirectory,
  readPythonModules,
  spawnKernelChild,
  type KernelChild,
} from "./pyodide/kernel-child-process.js";
import type { ChildFrame, ParentFrame } from "./pyodide/kernel-protocol.js";
import { findPyodideSnapshot } from "./pyodide/pyodide-snapshot.js";

export {
  defaultPyodideSnapshotDirectory,
  preparePyodideSnapshot,
  type PreparePyodideSnapshotOptions,
} from "./pyodide/pyodide-snapshot.js";

/** Settings of the Pyodide kernel beyond what every kernel gets. */
export interface PyodideKernelOptions extends KernelStartOptions {
  /**
   * A folder of Pyodide wheels (`*.whl`, optionally with its own `pyodide-lock.json`) that `%pip
   * install` reads; the kernel never downloads anything. Without it no package can be installed.
   */
  packageDirectory?: string;
  /**
   * Where {@link preparePyodideSnapshot} keeps memory snapshots. When one for this Pyodide and Node is
   * there, the kernel starts from it (well under a second instead of seconds); otherwise it loads cold.
   * A snapshot that cannot be used (cut short, damaged, another build's) is deleted and the kernel
   * loads cold, so the next preparation makes it again.
   */
  snapshotDirectory?: string;
  /** Where the kernel's child runs; default the host. */
  placement?: Placement;
  /** Milliseconds to wait for Pyodide to load before giving up; default 60 000. */
  startTimeoutMs?: number;
}

function errorResult(error: unknown): ToolResult {
  return { content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }], isError: true };
}

// The reason a fatal frame gave, else the last few stderr lines (a stack trace's head says most).
function exitDescription(exit: KernelExit, fatal: string | undefined): string {
  const how = exit.signal === null ? `exit code ${exit.code}` : `signal ${exit.signal}`;
  const why = fatal ?? exit.stderrTail.split("\n").slice(0, 3).join("\n");
  return why === "" ? how : `${how}: ${why}`;
}

/**
 * Start a Python kernel running Pyodide in a child Node process under the permission model: it reads
 * only the Pyodide files, its own scripts, the workdir and the package directory, writes only the
 * workdir, cannot start programs, and gets an empty environment (no host secrets). Frames travel on
 * the child's own stdin/stdout. Network access is not confined by Node 20's permission model.
 *
 * @throws ToolError `unavailable` when Pyodide does not start, `timeout`/`cancelled` when the start is
 * aborted; nothing is left running.
 */
export async function startPyodideKernel(options: PyodideKernelOptions): Promise<PyodideKernel> {
  const { executor, kernel: kernelModule } = await readPythonModules();
  const packageDirectory = options.packageDirectory;
  if (packageDirectory !== undefined) {
    await readdir(packageDirectory).catch((error: unknown) => {
      throw new ToolError({
        code: "not_found",
        message: `The Pyodide package directory \`${packageDirectory}\` cannot be read (${(error as Error).message}); pass a folder of wheels that exists.`,
        cause: error,
      });
    });
  }
  const snapshotPath =
    options.snapshotDirectory === undefined
      ? undefined
      : await findPyodideSnapshot(options.snapshotDirectory, executor);
  options.progress?.(snapshotPath === undefined ? "loading Pyodide" : "restoring Pyodide from its snapshot");
  const child = await spawnKernelChild({
    readable: [
      options.workdir,
      ...(packageDirectory === undefined ? [] : [packageDirectory]),
      ...(snapshotPath === undefined ? [] : [snapshotPath]),
    ],
    writable: [options.workdir],
    cwd: options.workdir,
    ...(options.placement === undefined ? {} : { placement: options.placement }),
  });
  const kernel = new PyodideKernel(child, (reason) => {
    options.progress?.(`the Pyodide snapshot cannot be used: ${reason}; loading Pyodide without it`);
    // Deleted so that the next preparation makes a good one instead of finding this one again.
    void rm(snapshotPath!, { force: true }).catch(() => undefined);
  });
  child.send({
    type: "start",
    workdir: options.workdir,
    pyodideDirectory: pyodideDirectory(),
    packageDirectory,
    modules: [executor, kernelModule],
    snapshotPath,
  });
  try {
    await kernel.ready(options.signal, options.startTimeoutMs ?? 60_000);
  } catch (error) {
    await kernel.dispose();
    throw error;
  }
  return kernel;
}

interface RunningCell {
  cell: number;
  request: CellRequest;
  settle(status: CellStatus): void;
}

/** The Pyodide kernel; beyond {@link Kernel}, it tells how its start went. */
export class PyodideKernel implements Kernel {
  readonly language = "python" as const;
  readonly kind = "pyodide" as const;
  label = "Pyodide";
  readonly exited: Promise<KernelExit>;
  /**
   * How long the child took to accept cells (and how much of it was loading Pyodide), whether it
   * restored a snapshot, and why not when it was given one it could not use.
   */
  startup: { readyMs: number; loadMs: number; fromSnapshot: boolean; snapshotProblem?: string } | undefined;
  private snapshotProblem: string | undefined;
  private readonly frames = new EventTarget();
  private running: RunningCell | undefined;
  private cells = 0;
  private fatal: string | undefined;

  private readonly child: KernelChild["process"];
  private readonly send: (frame: ParentFrame) => void;

  /** @internal Made by {@link startPyodideKernel}. */
  constructor(
    child: KernelChild,
    private readonly onSnapshotRejected: (reason: string) => void = () => undefined,
  ) {
    this.child = child.process;
    this.send = child.send;
    this.exited = this.child.exit.then((exit) => ({
      code: exit.code,
      signal: exit.signal,
      stderrTail: this.child.stderrTail().join("\n"),
    }));
    child.onFrame((frame) => {
      this.handle(frame);
      this.frames.dispatchEvent(Object.assign(new Event(frame.type), { frame }));
    });
    child.onForeignText((text) => this.running?.request.onOutput({ type: "stream", name: "stdout", text }));
  }

  get pid(): number {
    return this.child.pid;
  }

  private handle(frame: ChildFrame): void {
    if (frame.type === "fatal") this.fatal = frame.message;
    if (frame.type === "snapshot_rejected") {
      this.snapshotProblem = frame.reason;
      this.onSnapshotRejected(frame.reason);
    }
    const running = this.running;
    if (running === undefined || !("cell" in frame) || frame.cell !== running.cell) return;
    if (frame.type === "output") running.request.onOutput(frame.output);
    else if (frame.type === "tool_call") {
      void running.request.callTool(frame.name, frame.input).then(
        (result) => this.send({ type: "tool_result", call: frame.call, result }),
        (error: unknown) => this.send({ type: "tool_result", call: frame.call, result: errorResult(error) }),
      );
    } else if (frame.type === "done") {
      this.running = undefined;
      running.settle(frame.status);
    }
  }

  /** Resolves on the child's ready frame; rejects on a fatal frame, its exit, the signal or the budget. */
  ready(signal: AbortSignal, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          fail(
            new ToolError({
              code: "timeout",
              message: `Pyodide did not load within ${timeoutMs} ms; the machine may be overloaded: try again, or raise \`startTimeoutMs\`.`,
            }),
          ),
        timeoutMs,
      );
      const onAbort = (): void =>
        fail(
          abortedError(signal, {
            timeout: "Starting the Pyodide kernel ran out of time.",
            cancelled: "Starting the Pyodide kernel was cancelled.",
          }),
        );
      const cleanup = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.frames.removeEventListener("ready", onReady);
        this.frames.removeEventListener("fatal", onFatal);
      };
      const fail = (error: unknown): void => {
        cleanup();
        reject(error);
      };
      const onReady = (event: Event): void => {
        const frame = (event as Event & { frame: Extract<ChildFrame, { type: "ready" }> }).frame;
        this.label = `Pyodide (CPython ${frame.pythonVersion}) in an isolated child process`;
        this.startup = {
          readyMs: frame.readyMs,
          loadMs: frame.loadMs,
          fromSnapshot: frame.fromSnapshot,
          ...(this.snapshotProblem === undefined ? {} : { snapshotProblem: this.snapshotProblem }),
        };
        cleanup();
        resolve();
      };
      const onFatal = (event: Event): void => {
        const frame = (event as Event & { frame: Extract<ChildFrame, { type: "fatal" }> }).frame;
        fail(new ToolError({ code: "unavailable", message: `The Pyodide kernel could not start: ${frame.message}` }));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.frames.addEventListener("ready", onReady);
      this.frames.addEventListener("fatal", onFatal);
      void this.exited.then((exit) =>
        fail(
          new ToolError({
            code: "unavailable",
            message: `The Pyodide kernel's process ended while starting (${exitDescription(exit, this.fatal)}).`,
          }),
        ),
      );
    });
  }

  execute(request: CellRequest): Promise<CellStatus> {
    if (this.running !== undefined) {
      return Promise.reject(
        new ToolError({
          code: "conflict",
          message: `The Pyodide kernel is still running cell ${this.running.cell}; wait for it or interrupt it before running another.`,
        }),
      );
    }
    if (this.child.exited() !== undefined) {
      return Promise.reject(
        new ToolError({
          code: "unavailable",
          message: "The Pyodide kernel has exited; start a new one (eval's `reset`).",
        }),
      );
    }
    const cell = ++this.cells;
    return new Promise<CellStatus>((resolve, reject) => {
      this.running = { cell, request, settle: resolve };
      void this.exited.then((exit) => {
        if (this.running?.cell !== cell) return;
        this.running = undefined;
        reject(
          new ToolError({
            code: "unavailable",
            message: `The Pyodide kernel died while running the cell (${exitDescription(exit, this.fatal)}); its state is lost: run the cell again after a \`reset\`.`,
          }),
        );
      });
      this.send({ type: "execute", cell, code: request.code });
    });
  }

  interrupt(graceMs: number): Promise<boolean> {
    const running = this.running;
    if (running === undefined) return Promise.resolve(true);
    this.send({ type: "interrupt", cell: running.cell });
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      const onDone = (): void => {
        if (this.running !== undefined && this.running.cell === running.cell) return;
        clearTimeout(timer);
        this.frames.removeEventListener("done", onDone);
        resolve(this.child.exited() === undefined);
      };
      this.frames.addEventListener("done", onDone);
      void this.exited.then(() => {
        clearTimeout(timer);
        this.frames.removeEventListener("done", onDone);
        resolve(false);
      });
    });
  }

  async dispose(): Promise<void> {
    this.child.stdin.end();
    await this.child.stop({ graceMs: 1_000 });
  }
}
