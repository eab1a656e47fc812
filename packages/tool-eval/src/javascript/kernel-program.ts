import { javascriptKernelMain } from "./kernel-main.js";
import { javascriptKernelWatchdog } from "./kernel-watchdog.js";

let program: string | undefined;

// REPL-mode code has no module referrer, so Node 20 refuses its import(); the kernel's own script
// has one (the cwd), so it lends its import() to cells. Kept as text: a test runner's transform
// rewrites import() inside functions it compiles.
const importModule = "globalThis.importModule = (specifier, options) => import(specifier, options);";

/**
 * The source the kernel process runs with `node --eval`: the main-thread program and, as its
 * argument, the watchdog's source. Both are written as self-contained functions so they are
 * type-checked with the rest of the package yet need no file of their own next to the build output.
 */
export function javascriptKernelProgram(): string {
  program ??= `${importModule}\n(${javascriptKernelMain.toString()})(${JSON.stringify(`(${javascriptKernelWatchdog.toString()})()`)});`;
  return program;
}
