import { defineResource, type ToolResult } from "@runbound/tool-kit";

/** The languages a cell can be written in. */
export type KernelLanguage = "python" | "javascript";

/** Where a kernel runs; each kind is one implementation of {@link Kernel}. */
export type KernelKind = "native-python" | "pyodide" | "javascript";

/** One piece of a cell's output, in the order the cell produced it. */
export type CellOutput =
  | { type: "stream"; name: "stdout" | "stderr"; text: string }
  /** The echoed value of the cell's last expression (notebook style). */
  | { type: "result"; text: string }
  /** `display()` of text, or a table rendered as text/markdown (a DataFrame with its shape). */
  | { type: "display"; mimeType: "text/plain" | "text/markdown"; text: string }
  /** An image (a matplotlib figure, `display()` of an image), base64 without a data: prefix. */
  | { type: "image"; mimeType: "image/png" | "image/jpeg"; data: string }
  /** The cell raised; `traceback` is already stripped of the kernel's own frames. */
  | { type: "error"; name: string; message: string; traceback: string };

/** One cell to run. The code is plain: the eval tool has already rewritten IPython habits. */
export interface CellRequest {
  code: string;
  /**
   * Called for every output as soon as the kernel has it. The eval tool's inactivity clock restarts
   * on each call, so a kernel must forward output while the cell runs, not only at its end.
   */
  onOutput(output: CellOutput): void;
  /**
   * The `tool(name, input)` bridge: the cell's call travels over the kernel's own channel (no socket,
   * no port) and is answered with the run's result. The eval tool pauses its inactivity clock while
   * a call is pending.
   */
  callTool(name: string, input: unknown): Promise<ToolResult>;
}

/** How a cell ended. */
export type CellStatus = "ok" | "error" | "interrupted";

/** Why a kernel's process or worker is gone. */
export interface KernelExit {
  code: number | null;
  signal: string | null;
  /** The last lines the kernel wrote to its own stderr, for the error that says it died. */
  stderrTail: string;
}

/** A live interpreter whose state (variables, imports, loaded data) persists between cells. */
export interface Kernel {
  readonly language: KernelLanguage;
  readonly kind: KernelKind;
  /** What it is, for `status` and answers: e.g. "CPython 3.11.9 at .venv/bin/python". */
  readonly label: string;
  /** The process whose resident memory this kernel costs the host (undefined when in-process). */
  readonly pid: number | undefined;
  /** Run one cell; cells never overlap (eval is not parallel-safe). Rejects only if the kernel died. */
  execute(request: CellRequest): Promise<CellStatus>;
  /**
   * Stop the running cell. Resolves true when it stopped within `graceMs` and the kernel's state
   * survived; false when it did not stop (the eval tool then disposes and starts a fresh kernel).
   */
  interrupt(graceMs: number): Promise<boolean>;
  /** Settles when the kernel is gone, whether it crashed or was disposed. */
  readonly exited: Promise<KernelExit>;
  /** Kill the kernel and everything it started; resolves once they are gone from the process table. */
  dispose(): Promise<void>;
}

/** What starting a kernel may use. */
export interface KernelStartOptions {
  /** The run's working directory (absolute, symlinks resolved); the kernel's initial cwd. */
  workdir: string;
  /** Aborts the start (the run ended, the call was cancelled); a started process is then killed. */
  signal: AbortSignal;
  /** Says what a slow start is doing ("loading Pyodide", "starting .venv/bin/python"). */
  progress?: (message: string) => void;
}

/** What a language gets from a factory, and why: shown by `status` without starting anything. */
export interface KernelChoice {
  language: KernelLanguage;
  kind: KernelKind;
  /** e.g. "the project's .venv/bin/python (CPython 3.11.9)" or "no CPython found on PATH; Pyodide". */
  reason: string;
}

/** The host's decision of where kernels live; the eval tool never starts a sandbox itself. */
export interface KernelFactoryInstance {
  /** Cheap: inspects files and PATH, starts nothing. */
  describe(workdir: string): Promise<KernelChoice[]>;
  start(language: KernelLanguage, options: KernelStartOptions): Promise<Kernel>;
}

/** The resource eval requires. */
export const KernelFactory = defineResource<KernelFactoryInstance>(
  "eval.kernel_factory",
  "Starts persistent interpreter kernels (Python, JavaScript) for eval.",
);
