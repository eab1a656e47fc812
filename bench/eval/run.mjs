// Benchmark: tool-eval's kernels against the raw interpreter driven directly, in the same run.
// Native CPython: kernel ready time, warm round trip of `x += 1; x` (through the Kernel API and
// through the eval tool in a run), tool() bridge overhead, resident memory fresh and after importing
// pandas + matplotlib. Pyodide (when its kernel is in the build, --pyodide): ready time and round trip.
// Usage (from the repo root): (cd packages/tool-eval && npx tsc -p tsconfig.build.json) && node bench/eval/run.mjs
//   [--python <interpreter>] [--rounds 8] [--cells 300] [--bridge-calls 200] [--pyodide] [--pyodide-rounds 3]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readResidentMemoryKiB } from "@runbound/process-kit";
import { Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { createHostKernelFactory, evalTool, KernelFactory } from "@runbound/tool-eval";
import { percentile } from "../lsp/percentile.mjs";
import { startRawPython } from "./raw-python.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const rounds = Number(option("rounds", 8));
const cells = Number(option("cells", 300));
const bridgeCalls = Number(option("bridge-calls", 200));
const pyodideRounds = Number(option("pyodide-rounds", 3));
const venv = process.env.RUNBOUND_EVAL_TEST_VENV ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "runbound", "eval-venv");
if (!existsSync(join(venv, "bin", "python"))) throw new Error(`The virtualenv \`${venv}\` is missing; run \`. .ci/install.d/eval.sh\` first.`);
const python = option("python", join(venv, "bin", "python"));
const log = (line) => console.log(line);
const milliseconds = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const summary = (values) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95), n: values.length });
const show = (value) => value.toFixed(3);

// The kernel's workdir is a project whose .venv is the benchmark's interpreter's virtualenv, so the
// kernel resolves the same interpreter the raw side runs.
const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-eval-bench-")));
symlinkSync(resolve(python, "../.."), join(workdir, ".venv"));
const signal = new AbortController().signal;
const noBridge = () => Promise.reject(new Error("no bridge in this measurement"));

async function cellOnKernel(kernel, code, callTool = noBridge) {
  let result;
  const status = await kernel.execute({ code, onOutput: (output) => void (output.type === "result" && (result = output.text)), callTool });
  if (status !== "ok") throw new Error(`The cell \`${code}\` ended ${status}.`);
  return result;
}

const started = { at: new Date().toISOString(), uptime: execFileSync("uptime", { encoding: "utf8" }).trim(), loadavg: loadavg() };
const head = execFileSync("git", ["log", "-1", "--format=%h"], { cwd: repo, encoding: "utf8" }).trim();
log(`eval bench — ${started.at}; Node ${process.version}, ${cpus().length} CPUs; HEAD ${head}; interpreter ${python}`);
log(`load: ${started.uptime}`);
const results = { started, head, python, options: { rounds, cells, bridgeCalls }, native: {}, pyodide: undefined };

// 1. Ready time, alternating sides so load changes hit both.
const ready = { kernel: [], raw: [] };
for (let round = 0; round < rounds; round += 1) {
  const factory = createHostKernelFactory({ python: "native" });
  let start = process.hrtime.bigint();
  const kernel = await factory.start("python", { workdir, signal });
  ready.kernel.push(milliseconds(start));
  await factory.dispose();
  start = process.hrtime.bigint();
  const raw = await startRawPython(python);
  ready.raw.push(milliseconds(start));
  await raw.stop();
  void kernel;
}
results.native.ready = { kernel: summary(ready.kernel), raw: summary(ready.raw) };
log(`ready (ms) p50/p95: kernel ${show(results.native.ready.kernel.p50)}/${show(results.native.ready.kernel.p95)}, raw python ${show(results.native.ready.raw.p50)}/${show(results.native.ready.raw.p95)}`);

// 2. Warm round trip of `x += 1; x`, interleaved cell by cell.
const factory = createHostKernelFactory({ python: "native" });
const kernel = await factory.start("python", { workdir, signal });
const raw = await startRawPython(python);
await cellOnKernel(kernel, "x = 0");
await raw.run("x = 0");
const trip = { kernel: [], raw: [], tool: [] };
const run = createFakeRun({ tools: [evalTool], resources: [[KernelFactory, createHostKernelFactory({ python: "native" })], [Workdir, workdir]] });
const toolInput = (code) => ({ code, description: "add one to x and echo it" });
await run.call("eval", toolInput("x = 0"));
for (let cell = 0; cell < cells + 20; cell += 1) {
  let start = process.hrtime.bigint();
  const viaKernel = await cellOnKernel(kernel, "x += 1; x");
  const kernelMs = milliseconds(start);
  start = process.hrtime.bigint();
  const viaRaw = await raw.run("x += 1; x");
  const rawMs = milliseconds(start);
  start = process.hrtime.bigint();
  await run.call("eval", toolInput("x += 1; x"));
  const toolMs = milliseconds(start);
  if (viaKernel !== JSON.parse(viaRaw)) throw new Error(`The kernel answered \`${viaKernel}\` where raw python answered \`${viaRaw}\`.`);
  if (cell < 20) continue;
  trip.kernel.push(kernelMs);
  trip.raw.push(rawMs);
  trip.tool.push(toolMs);
}
results.native.roundTrip = { kernel: summary(trip.kernel), raw: summary(trip.raw), tool: summary(trip.tool) };
results.native.overheadMs = { kernel: results.native.roundTrip.kernel.p50 - results.native.roundTrip.raw.p50, tool: results.native.roundTrip.tool.p50 - results.native.roundTrip.raw.p50 };
log(`warm x += 1; x (ms) p50/p95: kernel ${show(results.native.roundTrip.kernel.p50)}/${show(results.native.roundTrip.kernel.p95)}, eval tool ${show(results.native.roundTrip.tool.p50)}/${show(results.native.roundTrip.tool.p95)}, raw python ${show(results.native.roundTrip.raw.p50)}/${show(results.native.roundTrip.raw.p95)}`);
log(`overhead p50 vs raw: kernel ${show(results.native.overheadMs.kernel)} ms, eval tool ${show(results.native.overheadMs.tool)} ms (goal ≤ 1 ms)`);

// 3. Bridge: a cell with one tool() call against the same cell without it; and many calls in one cell.
const answer = () => Promise.resolve({ content: [{ type: "text", text: "ok" }] });
const bridge = { withCall: [], without: [] };
for (let cell = 0; cell < bridgeCalls + 20; cell += 1) {
  let start = process.hrtime.bigint();
  await cellOnKernel(kernel, "y = tool('noop', {})\n1", answer);
  const withMs = milliseconds(start);
  start = process.hrtime.bigint();
  await cellOnKernel(kernel, "y = 'ok'\n1", answer);
  const withoutMs = milliseconds(start);
  if (cell < 20) continue;
  bridge.withCall.push(withMs);
  bridge.without.push(withoutMs);
}
let start = process.hrtime.bigint();
await cellOnKernel(kernel, `for _ in range(${bridgeCalls}):\n    tool('noop', {})\n1`, answer);
const manyMs = milliseconds(start);
results.native.bridge = { withCall: summary(bridge.withCall), without: summary(bridge.without), overheadMs: percentile(bridge.withCall, 0.5) - percentile(bridge.without, 0.5), perCallInLoopMs: manyMs / bridgeCalls };
log(`bridge: one call adds ${show(results.native.bridge.overheadMs)} ms p50 (goal ≤ 3 ms); ${bridgeCalls} calls in one cell ${show(manyMs)} ms, ${show(results.native.bridge.perCallInLoopMs)} ms each`);

// 4. Resident memory of the kernel process.
const fresh = await readResidentMemoryKiB(kernel.pid);
await cellOnKernel(kernel, "import pandas, matplotlib.pyplot\n1");
const loaded = await readResidentMemoryKiB(kernel.pid);
const rawFresh = await readResidentMemoryKiB(raw.pid);
results.native.rssKiB = { fresh, afterPandasMatplotlib: loaded, rawPythonFresh: rawFresh };
log(`RSS: kernel fresh ${(fresh / 1024).toFixed(1)} MiB, after import pandas + matplotlib.pyplot ${(loaded / 1024).toFixed(1)} MiB; raw python fresh ${(rawFresh / 1024).toFixed(1)} MiB`);
await raw.stop();
await factory.dispose();

// 5. Pyodide, when asked (seconds per start).
if (process.argv.includes("--pyodide")) {
  const pyodideFactory = createHostKernelFactory({ python: "pyodide" });
  const readyMs = [];
  let pyodideKernel;
  for (let round = 0; round < pyodideRounds; round += 1) {
    const begin = process.hrtime.bigint();
    pyodideKernel = await pyodideFactory.start("python", { workdir, signal });
    readyMs.push(milliseconds(begin));
    if (round < pyodideRounds - 1) await pyodideKernel.dispose();
  }
  await cellOnKernel(pyodideKernel, "x = 0");
  const pyodideTrip = [];
  for (let cell = 0; cell < cells + 20; cell += 1) {
    const begin = process.hrtime.bigint();
    await cellOnKernel(pyodideKernel, "x += 1; x");
    if (cell >= 20) pyodideTrip.push(milliseconds(begin));
  }
  const pyodideRss = await readResidentMemoryKiB(pyodideKernel.pid);
  results.pyodide = { ready: summary(readyMs), roundTrip: summary(pyodideTrip), rssKiB: pyodideRss };
  log(`pyodide: ready p50 ${show(results.pyodide.ready.p50)} ms (n=${readyMs.length}); warm x += 1; x p50/p95 ${show(results.pyodide.roundTrip.p50)}/${show(results.pyodide.roundTrip.p95)} ms; RSS ${(pyodideRss / 1024).toFixed(1)} MiB`);
  await pyodideFactory.dispose();
}

mkdirSync(join(repo, "bench/results"), { recursive: true });
const file = join(repo, "bench/results", `eval-${started.at.replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`results: ${file}`);
