import { ToolError } from "@runbound/tool-kit";
import type { Kernel, KernelChoice, KernelFactoryInstance, KernelLanguage, KernelStartOptions } from "./kernel.js";
import { startJavaScriptKernel } from "./javascript-kernel.js";
import { startNativePythonKernel } from "./native-python-kernel.js";
import { startPyodideKernel, type PyodideKernelOptions } from "./pyodide-kernel.js";
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
  /** Settings of the Pyodide kernel (a local wheel folder, a memory snapshot). */
  pyodide?: Omit<PyodideKernelOptions, keyof KernelStartOptions>;
}

/** A kernel factory that also ends every kernel it started: the resource's `dispose`. */
export interface HostKernelFactory extends KernelFactoryInstance {
  /** Kill every kernel this factory started that is still alive; resolves once they are gone. */
  dispose(): Promise<void>;
}

function nativeReason(interpreter: PythonInterpreter, choice: PythonKernelChoice): string {
  const version = interpreter.version === undefined ? "" : ` (CPython ${interpreter.version})`;
  const where = interpreter.origin === "project" ? `the project's ${interpreter.shown}${version}` : interpreter.origin === "candidate" ? `the configured ${interpreter.shown}${version}` : `${interpreter.shown} from PATH${version}; no .venv or venv in the workdir`;
  return choice === "native" ? `${where}; native CPython was asked for` : where;
}

function missingPythonMessage(candidates: readonly string[]): string {
  return `No CPython found: looked for \`.venv/bin/python\` and \`venv/bin/python\` in the workdir and for ${candidates.map((name) => `\`${name}\``).join(", ")}. Create a virtualenv in the project, name an interpreter in \`pythonCandidates\`, or choose \`pyodide\`.`;
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
  const resolve = (workdir: string) => (choice === "pyodide" ? Promise.resolve(undefined) : resolvePython(workdir, { candidates }));

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
          ? { language: "python", kind: "native-python", reason: nativeReason(interpreter, choice) }
          : choice === "native"
            ? { language: "python", kind: "native-python", reason: `unavailable: ${missingPythonMessage(candidates)}` }
            : { language: "python", kind: "pyodide", reason: choice === "pyodide" ? "Pyodide was asked for: an isolated child Node process" : "no CPython found (no .venv or venv in the workdir, none on PATH); Pyodide in an isolated child Node process" };
      return [python, { language: "javascript", kind: "javascript", reason: `a child Node ${process.version} process (not isolated: cells have the host user's rights)` }];
    },
    async start(language: KernelLanguage, options) {
      if (language === "javascript") return track(await startJavaScriptKernel(options));
      const interpreter = await resolve(options.workdir);
      if (interpreter !== undefined) return track(await startNativePythonKernel({ ...options, interpreter, ...(settings.env === undefined ? {} : { env: settings.env }) }));
      if (choice === "native") throw new ToolError({ code: "unavailable", message: missingPythonMessage(candidates) });
      return track(await startPyodideKernel({ ...options, ...settings.pyodide }));
    },
    async dispose() {
      await Promise.all([...live].map((kernel) => kernel.dispose()));
    },
  };
}
