import {
  hostPlacement,
  sandboxedPython,
  spawnOwnedProcess,
  type OwnedProcess,
  type Placement,
} from "@runbound/runtime-kit";
import { ToolError, type ToolResult } from "@runbound/tool-kit";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createChannelSecret, jsonLinesChannel } from "./json-lines-channel.js";
import type { CellOutput, CellRequest, CellStatus, Kernel, KernelExit, KernelStartOptions } from "./kernel.js";
import type { PythonInterpreter } from "./resolve-python.js";

/** Where the runner script is, beside the executor it loads; `src/` ships in the package. */
export const NATIVE_RUNNER_PATH = fileURLToPath(new URL("../src/python/native_runner.py", import.meta.url));

/** Options of {@link startNativePythonKernel}. */
export interface NativePythonKernelOptions extends KernelStartOptions {
  /** The interpreter to run (see `resolvePython`). */
  interpreter: PythonInterpreter;
  /** The environment of the kernel; default this process's. A sandbox passes only part of it. */
  env?: NodeJS.ProcessEnv;
  /** Where the kernel runs; default the host. */
  placement?: Placement;
  /** Milliseconds to wait for the runner to say it is ready; default 30 000. */
  startTimeoutMs?: number;
}

// What the runner needs whatever else the kernel's environment holds (a sandbox passes these too).
const kernelVariables = { PYTHONUNBUFFERED: "1", PYTHONIOENCODING: "utf-8", MPLBACKEND: "Agg" };

/**
 * For a kernel placed without the network: `%pip` fails at once instead of retrying for seconds
 * (`PIP_RETRIES=0`), and says why and how to allow it (the runner reads `RUNBOUND_EVAL_OFFLINE`).
 */
function offlineVariables(placement: Placement): Record<string, string> {
  return placement.network ? {} : { RUNBOUND_EVAL_OFFLINE: "1", PIP_RETRIES: "0", PIP_TIMEOUT: "5" };
}

type RunnerMessage =
  | { type: "ready"; version: string; implementation: string; executable: string }
  | { type: "output"; output: CellOutput }
  | { type: "tool_call"; id: number; name: string; input: unknown }
  | { type: "done"; status: CellStatus };

interface RunningCell {
  request: CellRequest;
  done(status: CellStatus): void;
  failed(error: Error): void;
}

function toolFailure(error: unknown): ToolResult {
  return { content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }], isError: true };
}

function kernelExit(process: OwnedProcess): Promise<KernelExit> {
  return process.exit.then((exit) => ({
    code: exit.code,
    signal: exit.signal,
    stderrTail: process.stderrTail().join("\n"),
  }));
}

function describeExit(exit: KernelExit): string {
  const how = exit.signal === null ? `exit code ${String(exit.code)}` : `signal ${exit.signal}`;
  return exit.stderrTail.trim() === "" ? how : `${how}; its last stderr lines:\n${exit.stderrTail.trim()}`;
}

/**
 * Start a native CPython kernel: the runner over the child's own pipes (moved to fd 3/4 in the child),
 * in a process group of its own, so `dispose` ends it and whatever its cells started. Its frames carry
 * a per-kernel secret, so a cell writing to fd 4 cannot end itself or call a tool behind the bridge.
 */
export async function startNativePythonKernel(options: NativePythonKernelOptions): Promise<Kernel> {
  if (options.signal.aborted) throw options.signal.reason;
  options.progress?.(
    `starting ${options.interpreter.version === undefined ? "CPython" : `CPython ${options.interpreter.version}`} at ${options.interpreter.shown}`,
  );
  const placement = options.placement ?? hostPlacement;
  const sandboxed =
    placement.kind === "sandbox"
      ? await sandboxedPython(options.interpreter.path, {
          fromProject: options.interpreter.origin === "project",
          cwd: options.workdir,
        })
      : undefined;
  const child = await spawnOwnedProcess({
    command: sandboxed?.command ?? options.interpreter.path,
    args: ["-X", "utf8", NATIVE_RUNNER_PATH],
    cwd: options.workdir,
    env: { ...(options.env ?? process.env), ...kernelVariables, ...offlineVariables(placement) },
    placement,
    ownEnv: [...Object.keys(kernelVariables), ...Object.keys(offlineVariables(placement))],
    readOnlyPaths: [...(sandboxed?.readOnlyPaths ?? []), dirname(NATIVE_RUNNER_PATH)],
  });
  const exited = kernelExit(child);
  let running: RunningCell | undefined;
  let ready: ((message: Extract<RunnerMessage, { type: "ready" }>) => void) | undefined;
  // What a cell writes to the channel's descriptor itself is its output, not a frame.
  const channel = jsonLinesChannel<RunnerMessage, object>(child, {
    secret: createChannelSecret(),
    onForeignText: (text) => running?.request.onOutput({ type: "stream", name: "stdout", text }),
  });
  const send = (message: object) => channel.send(message);
  channel.onMessage((message) => {
    switch (message.type) {
      case "ready":
        ready?.(message);
        break;
      case "output":
        running?.request.onOutput(message.output);
        break;
      case "tool_call": {
        const cell = running;
        if (cell === undefined) break;
        void cell.request
          .callTool(message.name, message.input)
          .catch(toolFailure)
          .then((result) => send({ type: "tool_result", id: message.id, result }));
        break;
      }
      case "done": {
        const cell = running;
        running = undefined;
        cell?.done(message.status);
        break;
      }
    }
  });

  void exited.then((exit) => {
    const cell = running;
    running = undefined;
    cell?.failed(new Error(`The Python kernel died during the cell (${describeExit(exit)}).`));
  });

  const onAbort = () => void child.stop({ graceMs: 0 });
  options.signal.addEventListener("abort", onAbort, { once: true });
  let hello: Extract<RunnerMessage, { type: "ready" }>;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  let startTimer: NodeJS.Timeout | undefined;
  try {
    hello = await new Promise((resolve, reject) => {
      ready = resolve;
      startTimer = setTimeout(() => {
        reject(
          new ToolError({
            code: "unavailable",
            message: `The Python kernel at \`${options.interpreter.shown}\` did not become ready within ${startTimeoutMs} ms; check that it starts (\`${options.interpreter.path} -c pass\`).`,
          }),
        );
        void child.stop({ graceMs: 0 });
      }, startTimeoutMs);
      void exited.then((exit) =>
        reject(
          options.signal.aborted
            ? options.signal.reason
            : new ToolError({
                code: "unavailable",
                message: `The Python kernel at \`${options.interpreter.shown}\` stopped before it was ready (${describeExit(exit)}). Check that it is CPython 3.8 or newer.`,
              }),
        ),
      );
    });
  } catch (error) {
    await child.stop({ graceMs: 0 });
    throw error;
  } finally {
    clearTimeout(startTimer);
    options.signal.removeEventListener("abort", onAbort);
  }

  return {
    language: "python",
    kind: "native-python",
    label: `${hello.implementation} ${hello.version} at ${options.interpreter.shown}${placement.kind === "sandbox" ? ", in a sandbox" : ""}`,
    pid: child.pid,
    exited,
    execute(request) {
      if (running !== undefined) return Promise.reject(new Error("A cell is already running in this kernel."));
      if (child.exited() !== undefined) return Promise.reject(new Error("The Python kernel is no longer running."));
      return new Promise<CellStatus>((resolve, reject) => {
        running = { request, done: resolve, failed: reject };
        send({ type: "execute", code: request.code });
      });
    },
    async interrupt(graceMs) {
      const cell = running;
      if (cell === undefined) return true;
      const stopped = new Promise<boolean>((resolve) => {
        const original = { done: cell.done, failed: cell.failed };
        cell.done = (status) => {
          original.done(status);
          resolve(true);
        };
        cell.failed = (error) => {
          original.failed(error);
          resolve(false);
        };
      });
      let timer: NodeJS.Timeout | undefined;
      // A second SIGINT halfway through the grace catches a cell that was between two handlers.
      // The interpreter itself, not a sandbox's wrapper: SIGINT would end the wrapper and the kernel with it.
      const interruptOnce = () =>
        void child.programPid().then((pid) => {
          try {
            if (pid !== undefined) process.kill(pid, "SIGINT");
          } catch {
            // Already gone: `exited` reports it.
          }
        });
      interruptOnce();
      const repeat = setTimeout(interruptOnce, graceMs / 2);
      const expired = new Promise<boolean>((resolve) => {
        timer = setTimeout(resolve, graceMs, false);
      });
      try {
        return await Promise.race([stopped, expired]);
      } finally {
        clearTimeout(timer);
        clearTimeout(repeat);
      }
    },
    async dispose() {
      child.stdin.end();
      channel.close();
      await child.stop({ graceMs: 500 });
    },
  };
}
