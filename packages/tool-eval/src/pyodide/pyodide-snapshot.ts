import { createHash } from "node:crypto";
import { access, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { abortedError, ToolError } from "@runbound/tool-kit";
import {
  pyodideDirectory,
  pyodideVersion,
  readPythonModules,
  spawnKernelChild,
  type PythonModule,
} from "./kernel-child-process.js";
import { SNAPSHOT_IMPORTS } from "./kernel-protocol.js";

/**
 * The snapshot file in `directory` for this Pyodide, this Node and this cell executor. A snapshot is a
 * copy of one build's wasm memory with the executor already imported, so the name carries all three.
 */
export function pyodideSnapshotPath(directory: string, executor: PythonModule): string {
  const key = createHash("sha256")
    .update(`${pyodideVersion()}\n${process.version}\n${SNAPSHOT_IMPORTS}\n${executor[1]}`)
    .digest("hex")
    .slice(0, 16);
  return join(directory, `pyodide-${pyodideVersion()}-${key}.snapshot`);
}

/** The snapshot to start from in `directory`, or undefined when there is none yet. */
export async function findPyodideSnapshot(directory: string, executor: PythonModule): Promise<string | undefined> {
  const path = pyodideSnapshotPath(directory, executor);
  return access(path).then(
    () => path,
    () => undefined,
  );
}

/** Settings of {@link preparePyodideSnapshot}. */
export interface PreparePyodideSnapshotOptions {
  /** Where snapshots live, e.g. `~/.cache/runbound/pyodide`; created if missing. */
  directory: string;
  /** Aborts the preparation; the child making the snapshot is then killed. */
  signal: AbortSignal;
  /** Told when a snapshot has to be made (a few seconds); not called when one is there already. */
  progress?: (message: string) => void;
}

/**
 * Make sure `directory` holds a memory snapshot of a loaded Pyodide (a few seconds, once), so later
 * kernels start from it in well under a second. The snapshot is made by a child under the same
 * permission model as a kernel, writing only `directory`, and runs no cell code.
 *
 * @returns the snapshot's path.
 * @throws ToolError `io_error` when it cannot be written, `cancelled`/`timeout` when aborted.
 */
export async function preparePyodideSnapshot(options: PreparePyodideSnapshotOptions): Promise<string> {
  const { executor } = await readPythonModules();
  const path = pyodideSnapshotPath(options.directory, executor);
  if ((await findPyodideSnapshot(options.directory, executor)) !== undefined) return path;
  options.progress?.("preparing a Pyodide memory snapshot (one time)…");
  await mkdir(options.directory, { recursive: true }).catch((error: unknown) => {
    throw new ToolError({
      code: "io_error",
      message: `The Pyodide snapshot folder \`${options.directory}\` cannot be made (${(error as Error).message}); give a writable \`snapshotDirectory\`, or \`false\` to load Pyodide without one.`,
      cause: error,
    });
  });
  // A rename needs read access to the folder as well as write access.
  const child = await spawnKernelChild({
    readable: [options.directory],
    writable: [options.directory],
    cwd: options.directory,
  });
  const onAbort = (): void => void child.process.stop({ graceMs: 0 });
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  try {
    const outcome = await new Promise<string | undefined>((resolve) => {
      child.onFrame((frame) => {
        if (frame.type === "snapshot_written") resolve(undefined);
        else if (frame.type === "fatal") resolve(frame.message);
      });
      void child.process.exit.then(() => resolve("its process ended first."));
      child.send({ type: "snapshot", pyodideDirectory: pyodideDirectory(), snapshotPath: path, modules: [executor] });
    });
    if (options.signal.aborted)
      throw abortedError(options.signal, {
        timeout: "Making the Pyodide snapshot ran out of time.",
        cancelled: "Making the Pyodide snapshot was cancelled.",
      });
    if (outcome !== undefined) {
      throw new ToolError({
        code: "io_error",
        message: `The Pyodide snapshot \`${path}\` could not be made: ${outcome} Check that the folder is writable, or start kernels without a snapshot directory.`,
      });
    }
    return path;
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    child.process.stdin.end();
    await child.process.stop({ graceMs: 1_000 });
  }
}

/**
 * Where snapshots go unless the host says otherwise: `$XDG_CACHE_HOME/runbound/pyodide`, else
 * `~/.cache/runbound/pyodide` (outside any checkout, shared by every run of this user).
 */
export function defaultPyodideSnapshotDirectory(env: NodeJS.ProcessEnv, home: string): string {
  const cache =
    env["XDG_CACHE_HOME"] !== undefined && env["XDG_CACHE_HOME"] !== "" ? env["XDG_CACHE_HOME"] : join(home, ".cache");
  return join(cache, "runbound", "pyodide");
}
