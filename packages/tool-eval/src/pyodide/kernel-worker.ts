import { closeSync, constants, openSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import type { loadPyodide as LoadPyodide, PyodideAPI } from "pyodide";
import type { CellStatus } from "../kernel.js";
import {
  SIGINT_VALUE,
  SignalSlots,
  SNAPSHOT_IMPORTS,
  type ChildFrame,
  type SnapshotFrame,
  type StartFrame,
  type WorkerFrame,
} from "./kernel-protocol.js";
import { indexOfflinePackages, planInstall, type LockFile, type OfflinePackage } from "./offline-packages.js";
import { sealOf, unsealSnapshot } from "./snapshot-seal.js";

/** What the child's main thread hands its worker. */
export interface KernelWorkerData {
  start: StartFrame | SnapshotFrame;
  /** Shared with the main thread: see {@link SignalSlots}. */
  signals: Int32Array;
  /** The main thread posts bridge answers here; the worker takes them synchronously. */
  toolResults: MessagePort;
}

const { signals, toolResults } = workerData as KernelWorkerData;
const request = (workerData as KernelWorkerData).start;
const port = parentPort!;
const post = (frame: ChildFrame): void => port.postMessage(frame);
// The cell running now: outputs and bridge calls are labelled with it.
let currentCell = 0;

// Pyodide's NODEFS reads `process.binding("constants").fs`, which the permission model denies; the
// same numbers are public as fs.constants.
const withBinding = process as unknown as { binding(name: string): unknown };
const binding = withBinding.binding.bind(process);
withBinding.binding = (name) => (name === "constants" ? { fs: constants, os: {} } : binding(name));

// Waits in slices so an interrupt is seen even if a wake-up was missed; the main thread bumps the wake
// slot for every bridge answer and every interrupt, so a wait normally ends at once.
const WAIT_SLICE_MS = 50;

// Consumes a pending interrupt, so Python's own check of the flag does not raise it a second time
// (the Python side raises KeyboardInterrupt where the cell called in).
function takeInterrupt(): boolean {
  return Atomics.compareExchange(signals, SignalSlots.interrupt, SIGINT_VALUE, 0) === SIGINT_VALUE;
}

function waitForWake(seen: number, milliseconds: number): void {
  Atomics.wait(signals, SignalSlots.wake, seen, Math.min(milliseconds, WAIT_SLICE_MS));
}

function offlineIndex(start: StartFrame): Map<string, OfflinePackage> {
  const folder = start.packageDirectory;
  if (folder === undefined) return new Map();
  const fileNames = readdirSync(folder);
  const lockPath = fileNames.includes("pyodide-lock.json")
    ? join(folder, "pyodide-lock.json")
    : join(start.pyodideDirectory, "pyodide-lock.json");
  return indexOfflinePackages(fileNames, JSON.parse(readFileSync(lockPath, "utf8")) as LockFile);
}

// Imported from the folder the parent named (and the permission model allows), not by package name.
async function importPyodide(directory: string): Promise<{ loadPyodide: typeof LoadPyodide }> {
  return (await import(pathToFileURL(join(directory, "pyodide.mjs")).href)) as { loadPyodide: typeof LoadPyodide };
}

// Module objects live in wasm memory and so survive a snapshot; their files (in Emscripten's MEMFS,
// which is JavaScript state) do not, so a restored kernel writes them again.
function loadModules(pyodide: PyodideAPI, modules: ReadonlyArray<[name: string, source: string]>): void {
  pyodide.FS.mkdirTree("/runbound");
  for (const [name, source] of modules) pyodide.FS.writeFile(`/runbound/${name}.py`, source);
  pyodide.runPython(
    `import sys\nif "/runbound" not in sys.path: sys.path.insert(0, "/runbound")\n${modules.map(([name]) => `import ${name}`).join("\n")}`,
  );
}

async function writeSnapshot(frame: SnapshotFrame): Promise<void> {
  const began = performance.now();
  const { loadPyodide } = await importPyodide(frame.pyodideDirectory);
  const pyodide = await loadPyodide({
    indexURL: frame.pyodideDirectory,
    packageCacheDir: frame.pyodideDirectory,
    _makeSnapshot: true,
    stdout: () => undefined,
    stderr: () => undefined,
  });
  pyodide.runPython(`import ${SNAPSHOT_IMPORTS.split(" ").join(", ")}`);
  loadModules(pyodide, frame.modules);
  const snapshot = pyodide.makeMemorySnapshot();
  const temporary = `${frame.snapshotPath}.${process.pid}.partial`;
  const file = openSync(temporary, "w");
  try {
    // writeFileSync on the descriptor writes each part whole; one writeSync call may write less.
    for (const part of [snapshot, sealOf(snapshot)]) writeFileSync(file, part);
  } finally {
    closeSync(file);
  }
  renameSync(temporary, frame.snapshotPath);
  post({ type: "snapshot_written", bytes: snapshot.length, milliseconds: Math.round(performance.now() - began) });
}

function bytesOf(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

// The snapshot's bytes (a view of the file's, not a copy), or undefined after saying why the file
// cannot be used.
function readSnapshot(path: string): Uint8Array | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (error) {
    post({ type: "snapshot_rejected", reason: `it cannot be read (${(error as Error).message})` });
    return undefined;
  }
  const opened = unsealSnapshot(bytesOf(file));
  if ("snapshot" in opened) return opened.snapshot;
  post({ type: "snapshot_rejected", reason: opened.problem });
  return undefined;
}

// Pyodide keeps its configuration, `_loadSnapshot` included, for the kernel's life: handed through a
// thenable that lets go of them, the file's 30 MB can be freed once they are in wasm memory.
function handOnce(bytes: Uint8Array): PromiseLike<Uint8Array> {
  let held: Uint8Array | undefined = bytes;
  return {
    then(onFulfilled) {
      const handed = held!;
      held = undefined;
      return Promise.resolve(onFulfilled!(handed));
    },
  } as PromiseLike<Uint8Array>;
}

async function boot(start: StartFrame): Promise<PyodideAPI> {
  const began = performance.now();
  const { loadPyodide } = await importPyodide(start.pyodideDirectory);
  const load = (snapshot: Uint8Array | undefined) =>
    loadPyodide({
      indexURL: start.pyodideDirectory,
      // Never the CDN: a package is only ever read from the package directory.
      packageCacheDir: start.packageDirectory ?? start.pyodideDirectory,
      env: { HOME: start.workdir },
      stdout: () => undefined,
      stderr: () => undefined,
      ...(snapshot === undefined ? {} : { _loadSnapshot: handOnce(snapshot) }),
    });
  const snapshot = start.snapshotPath === undefined ? undefined : readSnapshot(start.snapshotPath);
  let fromSnapshot = snapshot !== undefined;
  let pyodide: PyodideAPI;
  try {
    pyodide = await load(snapshot);
  } catch (error) {
    if (!fromSnapshot) throw error;
    // A sealed file Pyodide still refuses (another build's memory): the kernel starts without it.
    post({
      type: "snapshot_rejected",
      reason: `Pyodide refused it (${String((error as Error).message ?? error).split("\n")[0]})`,
    });
    fromSnapshot = false;
    pyodide = await load(undefined);
  }
  const loadMs = Math.round(performance.now() - began);
  pyodide.setInterruptBuffer(signals);
  // What bypasses sys.stdout (os.write(1, …), sys.__stdout__, C code) reaches these; it is the cell's output too.
  for (const name of ["stdout", "stderr"] as const) {
    const forward = {
      batched: (text: string) =>
        post({ type: "output", cell: currentCell, output: { type: "stream", name, text: `${text}\n` } }),
    };
    if (name === "stdout") pyodide.setStdout(forward);
    else pyodide.setStderr(forward);
  }
  pyodide.FS.mkdirTree(start.workdir);
  pyodide.mountNodeFS(start.workdir, start.workdir);
  pyodide.FS.chdir(start.workdir);
  const installed = new Set<string>();
  let nextCall = 0;
  pyodide.registerJsModule("runbound_kernel", {
    emit: (json: string) => post({ type: "output", cell: currentCell, output: JSON.parse(json) }),
    // Undefined (Python's None) when an interrupt abandoned the call; JavaScript's null would arrive as jsnull.
    call_tool(name: string, inputJson: string): string | undefined {
      const call = ++nextCall;
      post({ type: "tool_call", cell: currentCell, call, name, input: JSON.parse(inputJson) });
      for (;;) {
        const seen = Atomics.load(signals, SignalSlots.wake);
        for (
          let message = receiveMessageOnPort(toolResults);
          message !== undefined;
          message = receiveMessageOnPort(toolResults)
        ) {
          const answer = message.message as { call: number; result: unknown };
          // An answer to a call an interrupt abandoned is dropped.
          if (answer.call === call) return JSON.stringify(answer.result);
        }
        if (takeInterrupt()) return undefined;
        waitForWake(seen, WAIT_SLICE_MS);
      }
    },
    sleep(seconds: number): boolean {
      const until = performance.now() + seconds * 1000;
      for (let left = seconds * 1000; left > 0; left = until - performance.now()) {
        const seen = Atomics.load(signals, SignalSlots.wake);
        if (takeInterrupt()) return true;
        waitForWake(seen, left);
      }
      return takeInterrupt();
    },
    install(requirementsJson: string): string {
      const plan = planInstall(JSON.parse(requirementsJson) as string[], offlineIndex(start), start.packageDirectory);
      const fresh = plan.filter((entry) => !installed.has(entry.name));
      for (const entry of fresh) {
        // Pyodide refuses a Buffer ("Unknown typed array type") but takes a plain view of it.
        pyodide.unpackArchive(bytesOf(readFileSync(join(start.packageDirectory!, entry.fileName))), "wheel");
        installed.add(entry.name);
      }
      return JSON.stringify(fresh.map((entry) => [entry.name, entry.version]));
    },
    packages(): string {
      const index = [...offlineIndex(start).values()];
      if (index.length === 0)
        return "No packages are available offline (the kernel has no package directory with wheels).";
      return index
        .map((entry) => `${entry.name} ${entry.version}${installed.has(entry.name) ? " (installed)" : ""}`)
        .join("\n");
    },
  });
  loadModules(pyodide, start.modules);
  post({
    type: "ready",
    pythonVersion: pyodide.runPython("import sys; sys.version.split()[0]") as string,
    readyMs: Math.round(performance.now() - began),
    loadMs,
    fromSnapshot,
  });
  return pyodide;
}

async function serve(start: StartFrame): Promise<void> {
  let pyodide: PyodideAPI;
  try {
    pyodide = await boot(start);
  } catch (error) {
    post({ type: "fatal", message: `Pyodide did not start: ${String((error as Error).message ?? error)}` });
    return;
  }
  const kernelModule = pyodide.pyimport("runbound_pyodide") as {
    run_cell(code: string): Promise<CellStatus>;
    interrupt_await(): void;
  };
  let running: number | undefined;
  // Cells never overlap (the parent waits for each one's done frame), so they are handled in order.
  let queue = Promise.resolve();
  port.on("message", (frame: WorkerFrame) => {
    if (frame.type === "interrupt") {
      // This thread is free, so Python is not running: the cell, if it still runs, waits at an await,
      // where the flag is never read. The flag is taken so Python does not raise it again later.
      if (frame.cell === running && takeInterrupt()) kernelModule.interrupt_await();
      return;
    }
    queue = queue.then(async () => {
      let status: CellStatus;
      currentCell = frame.cell;
      running = frame.cell;
      try {
        status = await kernelModule.run_cell(frame.code);
      } catch (error) {
        // Only a fatal Pyodide error gets here (run_cell answers everything else).
        post({
          type: "fatal",
          message: `the Pyodide interpreter failed: ${String((error as Error).message ?? error)}`,
        });
        process.exit(1);
      }
      running = undefined;
      post({ type: "done", cell: frame.cell, status });
    });
  });
}

if (request.type === "snapshot") {
  try {
    await writeSnapshot(request);
  } catch (error) {
    post({
      type: "fatal",
      message: `The Pyodide snapshot was not written: ${String((error as Error).message ?? error)}.`,
    });
  }
} else {
  await serve(request);
}
