import { homedir } from "node:os";
import { hostPlacement, type Placement } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import type { Kernel, KernelChoice, KernelFactoryInstance, KernelLanguage, KernelStartOptions } from "./kernel.js";
import { startJavaScriptKernel } from "./javascript-kernel.js";
import { startNativePythonKernel } from "./native-python-kernel.js";
import {
  defaultPyodideSnapshotDirectory,
  preparePyodideSnapshot,
  startPyodideKernel,
  type PyodideKernelOptions,
} from "./pyodide-kernel.js";
import { resolvePython, type PythonInterpreter } from "./resolve-python.js";

/** Where Python cells run: a native CPython, Pyodide in an isolated child, or native when one resolves. */
export type PythonKernelChoice = "native" | "pyodide" | "auto";

/** Settings of {@link createHostKernelFactory}. */
export interface HostKernelFactorySettings {
  /** Default `auto`: the native CPython when one resolves (project `.venv`/`venv`, then the candidates), else Pyodide. */
  python?: PythonKernelChoice;
  /** Interpreters tried after the project's virtualenv: absolute paths or names on PATH. Default `python3`, `python`. */
  pythonCandidates?: readonly string[];
  /** The environment of native kernels; default this process's. (Pyodide always gets an empty one.) */
  env?: NodeJS.ProcessEnv;
  /**
   * Where kernels run (native Python, JavaScript, Pyodide's child); default the host. A sandbox placement
   * (runtime-kit's `createBubblewrapPlacement`) shows them the workdir, their interpreter read-only,
   * a private /tmp and HOME, an allowlisted environment and no network unless it allows it.
   */
  placement?: Placement;
  /** Settings of the Pyodide kernel (a local wheel folder, where its memory snapshot lives). */
  pyodide?: HostPyodideSettings;
}

/** The Pyodide kernel's settings in {@link HostKernelFactorySettings}. */
export interface HostPyodideSettings extends Omit<
  PyodideKernelOptions,
  keyof KernelStartOptions | "snapshotDirectory"
> {
  /**
   * Where the memory snapshot Pyodide kernels start from is kept. The first Pyodide kernel makes it
   * (a few seconds, once per Pyodide and Node version; a progress message says so), every later one
   * restores it in well under a second. Default {@link defaultPyodideSnapshotDirectory} of `env`;
   * `false` loads every kernel cold (and gives each its own `hash()` secret).
   */
  snapshotDirectory?: string | false;
}

/** A kernel factory that also ends every kernel it started: the resource's `dispose`. */
export interface HostKernelFactory extends KernelFactoryInstance {
  /** Kill every kernel this factory started that is still alive; resolves once they are gone. */
  dispose(): Promise<void>;
}

function nativeReason(interpreter: PythonInterpreter, choice: PythonKernelChoice): string {
  const version = interpreter.version === undefined ? "" : ` (CPython ${interpreter.version})`;
  const where =
    interpreter.origin === "project"
      ? `the project's ${interpreter.shown}${version}`
      : interpreter.origin === "candidate"
        ? `the configured ${interpreter.shown}${version}`
        : `${interpreter.shown} from PATH${version}; no .venv or venv in the workdir`;
  return choice === "native" ? `${where}; native CPython was asked for` : where;
}

function missingPythonMessage(candidates: readonly string[]): string {
  return `No CPython found: looked for \`.venv/bin/python\` and \`venv/bin/python\` in the workdir and for ${candidates.map((name) => `\`${name}\``).join(", ")}. Create a virtualenv in the project, name an interpreter in \`pythonCandidates\`, or choose \`pyodide\`.`;
}

/** The factory's snapshot folder: made ready before each Pyodide start, given up on after a failure. */
function pyodideSnapshots(settings: HostKernelFactorySettings) {
  const configured = settings.pyodide?.snapshotDirectory;
  const directory =
    configured === false
      ? undefined
      : (configured ?? defaultPyodideSnapshotDirectory(settings.env ?? process.env, homedir()));
  // Renewed by each dispose: it ends the preparations running then, not the factory's later starts.
  let disposed = new AbortController();
  let failure: string | undefined;
  return {
    /** What `status` says about Pyodide's start. */
    describe: (): string =>
      directory === undefined
        ? "loaded without a memory snapshot"
        : `started from a memory snapshot in \`${directory}\`, made by the first Pyodide kernel`,
    /** The folder to start from, or undefined (no snapshot wanted, or making one failed before). */
    async prepare(options: KernelStartOptions): Promise<string | undefined> {
      if (directory === undefined || failure !== undefined) return undefined;
      // One controller for the caller's signal and the factory's end: AbortSignal.any could lose a timeout.
      const preparing = new AbortController();
      const ended = disposed.signal;
      const abort = () => preparing.abort(options.signal.aborted ? options.signal.reason : ended.reason);
      options.signal.addEventListener("abort", abort, { once: true });
      ended.addEventListener("abort", abort, { once: true });
      if (options.signal.aborted) abort();
      try {
        await preparePyodideSnapshot({
          directory,
          signal: preparing.signal,
          ...(options.progress === undefined ? {} : { progress: options.progress }),
        });
        return directory;
      } catch (error) {
        if (preparing.signal.aborted) throw error;
        // A cache that cannot be written costs a cold start, not the kernel; it is not tried again.
        failure = (error as Error).message;
        options.progress?.(`${failure} Loading Pyodide without a snapshot.`);
        return undefined;
      } finally {
        options.signal.removeEventListener("abort", abort);
        ended.removeEventListener("abort", abort);
      }
    },
    dispose(): void {
      disposed.abort(
        new ToolError({
          code: "cancelled",
          message: "The kernel factory was disposed while it made the Pyodide snapshot.",
        }),
      );
      disposed = new AbortController();
    },
  };
}

/**
 * The host's kernel factory: Python in a native CPython (real pip, real SIGINT) or in Pyodide (an
 * isolated child process that cannot run programs or read the rest of the host), JavaScript in the
 * JavaScript kernel. It starts nothing until a cell asks.
 */
export function createHostKernelFactory(settings: HostKernelFactorySettings = {}): HostKernelFactory {
  const choice = settings.python ?? "auto";
  const candidates = settings.pythonCandidates ?? ["python3", "python"];
  const live = new Set<Kernel>();
  const snapshots = pyodideSnapshots(settings);
  const resolve = (workdir: string) =>
    choice === "pyodide" ? Promise.resolve(undefined) : resolvePython(workdir, { candidates });

  const track = (kernel: Kernel): Kernel => {
    live.add(kernel);
    void kernel.exited.then(() => live.delete(kernel));
    return kernel;
  };

  return {
    async describe(workdir) {
      const interpreter = await resolve(workdir);
      const python: KernelChoice =
        interpreter !== undefined
          ? {
              language: "python",
              kind: "native-python",
              reason: `${nativeReason(interpreter, choice)}; ${(settings.placement ?? hostPlacement).describe()}`,
            }
          : choice === "native"
            ? { language: "python", kind: "native-python", reason: `unavailable: ${missingPythonMessage(candidates)}` }
            : {
                language: "python",
                kind: "pyodide",
                reason: `${choice === "pyodide" ? "Pyodide was asked for: an isolated child Node process" : "no CPython found (no .venv or venv in the workdir, none on PATH); Pyodide in an isolated child Node process"}, ${snapshots.describe()}${settings.placement?.kind === "sandbox" ? `; ${settings.placement.describe()}` : ""}`,
              };
      const javascript =
        settings.placement?.kind === "sandbox"
          ? `a child Node ${process.version} process, ${settings.placement.describe()}`
          : `a child Node ${process.version} process (not isolated: cells have the host user's rights)`;
      return [python, { language: "javascript", kind: "javascript", reason: javascript }];
    },
    async start(language: KernelLanguage, options) {
      if (language === "javascript")
        return track(
          await startJavaScriptKernel({
            ...options,
            ...(settings.placement === undefined ? {} : { placement: settings.placement }),
          }),
        );
      const interpreter = await resolve(options.workdir);
      if (interpreter !== undefined) {
        return track(
          await startNativePythonKernel({
            ...options,
            interpreter,
            ...(settings.env === undefined ? {} : { env: settings.env }),
            ...(settings.placement === undefined ? {} : { placement: settings.placement }),
          }),
        );
      }
      if (choice === "native") throw new ToolError({ code: "unavailable", message: missingPythonMessage(candidates) });
      const snapshotDirectory = await snapshots.prepare(options);
      return track(
        await startPyodideKernel({
          ...options,
          ...settings.pyodide,
          snapshotDirectory,
          ...(settings.placement === undefined ? {} : { placement: settings.placement }),
        }),
      );
    },
    async dispose() {
      snapshots.dispose();
      await Promise.all([...live].map((kernel) => kernel.dispose()));
    },
  };
}
