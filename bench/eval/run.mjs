// Benchmark: tool-eval's kernels against the raw interpreter driven directly, in the same run.
// Native CPython and JavaScript: kernel ready time, warm round trip of `x += 1; x` (through the Kernel
// API; for Python also through the eval tool in a run), tool() bridge overhead, resident memory.
// Pyodide (--pyodide): ready time cold and from the memory snapshot (and what making it costs once),
// warm round trip against Pyodide driven in this process, bridge overhead, resident memory.
// Every section records the load average it ran under.
// Usage (from the repo root): (cd packages/tool-eval && npx tsc -p tsconfig.build.json) && node bench/eval/run.mjs
//   [--python <interpreter>] [--rounds 8] [--cells 300] [--bridge-calls 200] [--pyodide] [--pyodide-rounds 3]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readResidentMemoryKiB } from "@runbound/runtime-kit";
import { Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { createHostKernelFactory, evalTool, KernelFactory } from "@runbound/tool-eval";
import { percentile } from "../lsp/percentile.mjs";
import { startRawNode } from "./raw-node.mjs";
import { startRawPyodide } from "./raw-pyodide.mjs";
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
const warmUp = 20;
const venv =
  process.env.RUNBOUND_EVAL_TEST_VENV ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "runbound", "eval-venv");
if (!existsSync(join(venv, "bin", "python")))
  throw new Error(`The virtualenv \`${venv}\` is missing; run \`. .ci/install.d/eval.sh\` first.`);
const python = option("python", join(venv, "bin", "python"));
const log = (line) => console.log(line);
const milliseconds = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const summary = (values) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95), n: values.length });
const show = (value) => value.toFixed(3);
const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

// The kernel's workdir is a project whose .venv is the benchmark's interpreter's virtualenv, so the
// kernel resolves the same interpreter the raw side runs.
const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-eval-bench-")));
symlinkSync(resolve(python, "../.."), join(workdir, ".venv"));
const signal = new AbortController().signal;
const noBridge = () => Promise.reject(new Error("no bridge in this measurement"));
const answer = () => Promise.resolve({ content: [{ type: "text", text: "ok" }] });

async function cellOnKernel(kernel, code, callTool = noBridge) {
  let result;
  const status = await kernel.execute({
    code,
    onOutput: (output) => void (output.type === "result" && (result = output.text)),
    callTool,
  });
  if (status !== "ok") throw new Error(`The cell \`${code}\` ended ${status}.`);
  return result;
}

async function timed(action) {
  const start = process.hrtime.bigint();
  const value = await action();
  return { value, ms: milliseconds(start) };
}

// Each side runs one cell in turn, so a change of load hits every side alike; the first cells warm up.
async function interleaved(sides, count) {
  const times = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let cell = 0; cell < count + warmUp; cell += 1) {
    const answers = {};
    for (const [name, run] of Object.entries(sides)) {
      const { value, ms } = await timed(run);
      answers[name] = value;
      if (cell >= warmUp) times[name].push(ms);
    }
    const distinct = new Set(Object.values(answers).filter((value) => value !== undefined));
    if (distinct.size > 1) throw new Error(`The sides answered differently: ${JSON.stringify(answers)}.`);
  }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, summary(values)]));
}

// One bridge call in a cell against the same cell without it; then many calls in one cell.
async function bridgeOverhead(kernel, withCall, without, loop) {
  const trips = await interleaved(
    { withCall: () => cellOnKernel(kernel, withCall, answer), without: () => cellOnKernel(kernel, without, answer) },
    bridgeCalls,
  );
  const { ms } = await timed(() => cellOnKernel(kernel, loop, answer));
  return {
    ...trips,
    overheadMs: trips.withCall.p50 - trips.without.p50,
    perCallInLoopMs: ms / bridgeCalls,
    load: load(),
  };
}

const showBridge = (bridge) =>
  `bridge: one call adds ${show(bridge.overheadMs)} ms p50 (goal ≤ 3 ms); ${bridgeCalls} calls in one cell ${show(bridge.perCallInLoopMs)} ms each [load ${bridge.load}]`;

const started = {
  at: new Date().toISOString(),
  uptime: execFileSync("uptime", { encoding: "utf8" }).trim(),
  loadavg: loadavg(),
};
const head = execFileSync("git", ["log", "-1", "--format=%h"], { cwd: repo, encoding: "utf8" }).trim();
log(`eval bench — ${started.at}; Node ${process.version}, ${cpus().length} CPUs; HEAD ${head}; interpreter ${python}`);
log(`load: ${started.uptime}`);
const results = {
  started,
  head,
  python,
  options: { rounds, cells, bridgeCalls, pyodideRounds },
  native: {},
  javascript: {},
  pyodide: undefined,
};

// Native CPython. 1. Ready time, alternating sides so load changes hit both.
const ready = { kernel: [], raw: [] };
for (let round = 0; round < rounds; round += 1) {
  const factory = createHostKernelFactory({ python: "native" });
  ready.kernel.push((await timed(() => factory.start("python", { workdir, signal }))).ms);
  await factory.dispose();
  const raw = await timed(() => startRawPython(python));
  ready.raw.push(raw.ms);
  await raw.value.stop();
}
results.native.ready = { kernel: summary(ready.kernel), raw: summary(ready.raw), load: load() };
log(
  `native ready (ms) p50/p95: kernel ${show(results.native.ready.kernel.p50)}/${show(results.native.ready.kernel.p95)}, raw python ${show(results.native.ready.raw.p50)}/${show(results.native.ready.raw.p95)} [load ${results.native.ready.load}]`,
);

// 2. Warm round trip of `x += 1; x`.
const factory = createHostKernelFactory({ python: "native" });
const kernel = await factory.start("python", { workdir, signal });
const raw = await startRawPython(python);
await cellOnKernel(kernel, "x = 0");
await raw.run("x = 0");
// The tool's own factory, disposed below: its kernel would otherwise keep this process alive.
const toolFactory = createHostKernelFactory({ python: "native" });
const run = createFakeRun({
  tools: [evalTool],
  resources: [
    [KernelFactory, toolFactory],
    [Workdir, workdir],
  ],
});
const toolInput = (code) => ({ code, description: "add one to x and echo it" });
await run.call("eval", toolInput("x = 0"));
const nativeTrip = await interleaved(
  {
    kernel: () => cellOnKernel(kernel, "x += 1; x"),
    raw: async () => JSON.parse(await raw.run("x += 1; x")),
    tool: async () => void (await run.call("eval", toolInput("x += 1; x"))),
  },
  cells,
);
results.native.roundTrip = { ...nativeTrip, load: load() };
results.native.overheadMs = {
  kernel: nativeTrip.kernel.p50 - nativeTrip.raw.p50,
  tool: nativeTrip.tool.p50 - nativeTrip.raw.p50,
};
log(
  `native warm x += 1; x (ms) p50/p95: kernel ${show(nativeTrip.kernel.p50)}/${show(nativeTrip.kernel.p95)}, eval tool ${show(nativeTrip.tool.p50)}/${show(nativeTrip.tool.p95)}, raw python ${show(nativeTrip.raw.p50)}/${show(nativeTrip.raw.p95)} [load ${results.native.roundTrip.load}]`,
);
log(
  `native overhead p50 vs raw: kernel ${show(results.native.overheadMs.kernel)} ms, eval tool ${show(results.native.overheadMs.tool)} ms (goal ≤ 1 ms)`,
);

// 3. Bridge.
results.native.bridge = await bridgeOverhead(
  kernel,
  "y = tool('noop', {})\n1",
  "y = 'ok'\n1",
  `for _ in range(${bridgeCalls}):\n    tool('noop', {})\n1`,
);
log(`native ${showBridge(results.native.bridge)}`);

// 4. Resident memory of the kernel process.
const fresh = await readResidentMemoryKiB(kernel.pid);
await cellOnKernel(kernel, "import pandas, matplotlib.pyplot\n1");
const loaded = await readResidentMemoryKiB(kernel.pid);
results.native.rssKiB = { fresh, afterPandasMatplotlib: loaded, rawPythonFresh: await readResidentMemoryKiB(raw.pid) };
log(
  `native RSS: kernel fresh ${mib(fresh)}, after import pandas + matplotlib.pyplot ${mib(loaded)}; raw python fresh ${mib(results.native.rssKiB.rawPythonFresh)}`,
);
await raw.stop();
await factory.dispose();
await toolFactory.dispose();

// JavaScript: the same against a plain node child evaluating with vm.
const jsReady = { kernel: [], raw: [] };
const jsFactory = createHostKernelFactory();
for (let round = 0; round < rounds; round += 1) {
  const started = await timed(() => jsFactory.start("javascript", { workdir, signal }));
  jsReady.kernel.push(started.ms);
  await started.value.dispose();
  const rawNode = await timed(() => startRawNode());
  jsReady.raw.push(rawNode.ms);
  await rawNode.value.stop();
}
results.javascript.ready = { kernel: summary(jsReady.kernel), raw: summary(jsReady.raw), load: load() };
log(
  `javascript ready (ms) p50/p95: kernel ${show(results.javascript.ready.kernel.p50)}/${show(results.javascript.ready.kernel.p95)}, raw node ${show(results.javascript.ready.raw.p50)}/${show(results.javascript.ready.raw.p95)} [load ${results.javascript.ready.load}]`,
);
const jsKernel = await jsFactory.start("javascript", { workdir, signal });
const rawNode = await startRawNode();
await cellOnKernel(jsKernel, "var x = 0");
await rawNode.run("var x = 0");
const jsTrip = await interleaved(
  { kernel: () => cellOnKernel(jsKernel, "x += 1; x"), raw: async () => JSON.parse(await rawNode.run("x += 1; x")) },
  cells,
);
results.javascript.roundTrip = { ...jsTrip, load: load() };
results.javascript.overheadMs = jsTrip.kernel.p50 - jsTrip.raw.p50;
log(
  `javascript warm x += 1; x (ms) p50/p95: kernel ${show(jsTrip.kernel.p50)}/${show(jsTrip.kernel.p95)}, raw node ${show(jsTrip.raw.p50)}/${show(jsTrip.raw.p95)}; overhead ${show(results.javascript.overheadMs)} ms (goal ≤ 1 ms) [load ${results.javascript.roundTrip.load}]`,
);
results.javascript.bridge = await bridgeOverhead(
  jsKernel,
  "var y = await tool('noop', {}); 1",
  "var y = 'ok'; 1",
  `for (let i = 0; i < ${bridgeCalls}; i++) await tool('noop', {}); 1`,
);
log(`javascript ${showBridge(results.javascript.bridge)}`);
results.javascript.rssKiB = {
  kernel: await readResidentMemoryKiB(jsKernel.pid),
  rawNode: await readResidentMemoryKiB(rawNode.pid),
};
log(
  `javascript RSS: kernel ${mib(results.javascript.rssKiB.kernel)}, raw node ${mib(results.javascript.rssKiB.rawNode)}`,
);
await rawNode.stop();
await jsFactory.dispose();

// Pyodide, when asked (seconds per start): cold, then from a snapshot made in a fresh folder.
if (process.argv.includes("--pyodide")) {
  const startAll = async (pyodideFactory, count) => {
    const times = [];
    let last;
    for (let round = 0; round < count; round += 1) {
      const { value, ms } = await timed(() => pyodideFactory.start("python", { workdir, signal }));
      times.push(ms);
      if (last !== undefined) await last.dispose();
      last = value;
    }
    return { times, last };
  };
  const coldFactory = createHostKernelFactory({ python: "pyodide", pyodide: { snapshotDirectory: false } });
  const cold = await startAll(coldFactory, pyodideRounds);
  const coldLoad = load();
  await coldFactory.dispose();
  const snapshotDirectory = mkdtempSync(join(tmpdir(), "runbound-eval-bench-snapshot-"));
  const snapshotFactory = createHostKernelFactory({ python: "pyodide", pyodide: { snapshotDirectory } });
  const first = await startAll(snapshotFactory, 1);
  await first.last.dispose();
  const restored = await startAll(snapshotFactory, pyodideRounds);
  const pyodideKernel = restored.last;
  results.pyodide = {
    ready: {
      cold: summary(cold.times),
      coldLoad,
      firstWithPreparation: first.times[0],
      fromSnapshot: summary(restored.times),
      startup: pyodideKernel.startup,
      load: load(),
    },
  };
  log(
    `pyodide ready (ms): cold p50 ${show(results.pyodide.ready.cold.p50)} [load ${coldLoad}]; first start making the snapshot ${show(first.times[0])}; from the snapshot p50 ${show(results.pyodide.ready.fromSnapshot.p50)} (goal ≤ 1500) [load ${results.pyodide.ready.load}]`,
  );
  const rssFresh = await readResidentMemoryKiB(pyodideKernel.pid);
  const rawPyodide = await startRawPyodide();
  await cellOnKernel(pyodideKernel, "x = 0");
  rawPyodide.run("x = 0");
  const pyodideTrip = await interleaved(
    { kernel: () => cellOnKernel(pyodideKernel, "x += 1; x"), raw: async () => rawPyodide.run("x += 1; x") },
    cells,
  );
  results.pyodide.roundTrip = {
    ...pyodideTrip,
    overheadMs: pyodideTrip.kernel.p50 - pyodideTrip.raw.p50,
    load: load(),
  };
  log(
    `pyodide warm x += 1; x (ms) p50/p95: kernel ${show(pyodideTrip.kernel.p50)}/${show(pyodideTrip.kernel.p95)}, raw Pyodide in this process ${show(pyodideTrip.raw.p50)}/${show(pyodideTrip.raw.p95)}; overhead ${show(results.pyodide.roundTrip.overheadMs)} ms (goal ≤ 2 ms) [load ${results.pyodide.roundTrip.load}]`,
  );
  results.pyodide.bridge = await bridgeOverhead(
    pyodideKernel,
    "y = tool('noop', {})\n1",
    "y = 'ok'\n1",
    `for _ in range(${bridgeCalls}):\n    tool('noop', {})\n1`,
  );
  log(`pyodide ${showBridge(results.pyodide.bridge)}`);
  results.pyodide.rssKiB = { fresh: rssFresh, afterCells: await readResidentMemoryKiB(pyodideKernel.pid) };
  log(
    `pyodide RSS (child node): fresh from the snapshot ${mib(rssFresh)}, after the cells ${mib(results.pyodide.rssKiB.afterCells)}`,
  );
  await snapshotFactory.dispose();
  rmSync(snapshotDirectory, { recursive: true, force: true });
}

rmSync(workdir, { recursive: true, force: true });
mkdirSync(join(repo, "bench/results"), { recursive: true });
const file = join(repo, "bench/results", `eval-${started.at.replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`results: ${file}`);
