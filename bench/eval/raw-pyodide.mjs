// The Pyodide peer: Pyodide loaded in this process and driven with runPython directly (no child
// process, no worker, no cell executor): what the interpreter itself costs per cell.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Load Pyodide from tool-eval's own dependency; resolves with a runner of cells. */
export async function startRawPyodide() {
  const require = createRequire(new URL("../../packages/tool-eval/package.json", import.meta.url));
  const directory = dirname(require.resolve("pyodide/package.json"));
  const { loadPyodide } = await import(pathToFileURL(join(directory, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: `${directory}/`, stdout: () => undefined, stderr: () => undefined });
  return { run: (code) => String(pyodide.runPython(code)) };
}
