import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hostPlacement, spawnOwnedProcess, type OwnedProcess, type Placement } from "@runbound/runtime-kit";
import { createChannelSecret, jsonLinesChannel } from "../json-lines-channel.js";
import type { ChildFrame, ParentFrame } from "./kernel-protocol.js";
import { permissionArguments } from "./permission-arguments.js";

// src/pyodide and dist/pyodide sit at the same depth, so these resolve from either: the child runs
// compiled JavaScript (dist), the Python sources ship in src.
const packageRoot = fileURLToPath(new URL("../..", import.meta.url));
const childDirectory = join(packageRoot, "dist", "pyodide");

/** A Python module the kernel loads: [module name, source]. */
export type PythonModule = [name: string, source: string];

/**
 * The Python modules the kernel loads after Pyodide, in order: the shared cell executor (which a
 * snapshot holds already imported), then the kernel's own (which needs the worker's JavaScript module,
 * so it is imported after every start).
 */
export async function readPythonModules(): Promise<{ executor: PythonModule; kernel: PythonModule }> {
  const read = async (name: string, ...path: string[]): Promise<PythonModule> => [
    name,
    await readFile(join(packageRoot, "src", ...path), "utf8"),
  ];
  return {
    executor: await read("runbound_cell", "python", "runbound_cell.py"),
    kernel: await read("runbound_pyodide", "pyodide", "runbound_pyodide.py"),
  };
}

/** The folder of the installed `pyodide` package (its wasm, stdlib zip and lockfile). */
export function pyodideDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
}

/** The installed `pyodide` package's version. */
export function pyodideVersion(): string {
  return (createRequire(import.meta.url)("pyodide/package.json") as { version: string }).version;
}

/** What one kernel child may touch besides the Pyodide files and its own scripts. */
export interface KernelChildAccess {
  readable: readonly string[];
  writable: readonly string[];
  cwd: string;
  /**
   * Where the child runs; default the host. Node's permission model does not stop `import js` from
   * following a symlink out of the workdir, opening sockets or signalling other processes; a sandbox
   * does: there, the paths it may read are all it can see.
   */
  placement?: Placement;
}

/** A started kernel child: its process, and how to talk to it. */
export interface KernelChild {
  process: OwnedProcess;
  send(frame: ParentFrame): void;
  /** Calls `listener` with every frame; a damaged frame stops the child (the channel is no longer trustworthy). */
  onFrame(listener: (frame: ChildFrame) => void): void;
  /**
   * Calls `listener` with text on the child's stdout that is not a frame: a cell reaching the worker's
   * `process.stdout` (through `import js`) writes there. Shown as output, never obeyed.
   */
  onForeignText(listener: (text: string) => void): void;
}

/**
 * Start the kernel's child: Node under the permission model, reading only the Pyodide files, its own
 * scripts and `access.readable`, writing only `access.writable`, with no child processes and an empty
 * environment (no host secrets; no NODE_OPTIONS that could preload code).
 */
export async function spawnKernelChild(access: KernelChildAccess): Promise<KernelChild> {
  const readable = [
    pyodideDirectory(),
    childDirectory,
    // Node reads the package.json above a .js file to learn it is an ES module.
    join(packageRoot, "package.json"),
    ...access.readable,
  ];
  // The worker is what keeps interrupts from crashing the kernel: Python blocks the thread it runs on,
  // so another thread must set the interrupt flag and answer the tool() bridge. Workers inherit every
  // denial of the permission model.
  const args = [
    "--no-warnings",
    ...permissionArguments({ readable, writable: access.writable, worker: true }, process.allowedNodeEnvironmentFlags),
    join(childDirectory, "kernel-child.js"),
  ];
  const child = await spawnOwnedProcess({
    command: process.execPath,
    args,
    cwd: access.cwd,
    env: {},
    placement: access.placement ?? hostPlacement,
    readOnlyPaths: readable,
  });
  let foreign: (text: string) => void = () => undefined;
  // Only the child's main thread knows the secret; Python runs in its worker, which never sees it.
  const channel = jsonLinesChannel<ChildFrame, ParentFrame>(child, {
    secret: createChannelSecret(),
    onForeignText: (text) => foreign(text),
  });
  return {
    process: child,
    send: channel.send,
    onFrame: channel.onMessage,
    onForeignText: (listener) => {
      foreign = listener;
    },
  };
}
