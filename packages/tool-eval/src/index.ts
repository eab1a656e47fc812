export {
  evalPlugin as default,
  evalPlugin,
  createEvalPlugin,
  describeKernels,
  type EvalPluginSettings,
} from "./plugin.js";
export { createEvalTool, evalTool, type EvalSettings } from "./eval-tool.js";
export {
  createHostKernelFactory,
  type HostKernelFactory,
  type HostKernelFactorySettings,
  type HostPyodideSettings,
  type PythonKernelChoice,
} from "./host-kernel-factory.js";
export { startNativePythonKernel, type NativePythonKernelOptions } from "./native-python-kernel.js";
export { resolvePython, type PythonInterpreter, type ResolvePythonSettings } from "./resolve-python.js";
export { rewriteMagics, SUPPORTED_MAGICS } from "./magics/rewrite-magics.js";
export { DEFAULT_TRANSCRIPT_LIMITS, type CellTranscriptLimits } from "./cell-transcript.js";
export {
  KernelFactory,
  type CellOutput,
  type CellRequest,
  type CellStatus,
  type Kernel,
  type KernelChoice,
  type KernelExit,
  type KernelFactoryInstance,
  type KernelKind,
  type KernelLanguage,
  type KernelStartOptions,
} from "./kernel.js";
export {
  defaultPyodideSnapshotDirectory,
  preparePyodideSnapshot,
  PyodideKernel,
  startPyodideKernel,
  type PreparePyodideSnapshotOptions,
  type PyodideKernelOptions,
} from "./pyodide-kernel.js";
export { startJavaScriptKernel, type JavaScriptKernelOptions } from "./javascript-kernel.js";
