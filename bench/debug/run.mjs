// Launch-to-first-stop and per-operation latency of the debug tool against a raw DAP client on the
// same fixture, per adapter, plus the resident memory of each adapter and its debuggee per session.
// Usage: npm run build && node bench/debug/run.mjs [--runs 3] [--iterations 10] [--adapter debugpy|lldb|delve]
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { homedir, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { listDescendants, readResidentMemoryKiB } from "@runbound/runtime-kit";
import { ConversationId, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { ADAPTERS, createDebugSupervisor, DebugSupervisor, debugPlugin } from "../../packages/tool-debug/dist/index.js";
import { rawSession } from "./raw-client.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "..", "..", "packages", "tool-debug", "src", "__fixtures__");
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? fallback : Number(process.argv[index + 1]);
};
const runs = option("runs", 3);
const onlyAdapter = process.argv.includes("--adapter")
  ? process.argv[process.argv.indexOf("--adapter") + 1]
  : undefined;
const iterations = option("iterations", 10);
const debugpyPython =
  process.env.RUNBOUND_DEBUGPY_PYTHON ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "runbound", "debugpy-venv", "bin", "python");

const cases = [
  {
    id: "debugpy",
    fixture: "python-app",
    program: "app.py",
    file: "app.py",
    line: 5,
    expression: "left + right",
    toolExpression: "left + right",
  },
  {
    id: "lldb",
    fixture: "c-app",
    program: "app",
    file: "main.c",
    line: 5,
    expression: "left + right",
    build: (workdir) => execFileSync("gcc", ["-g", "-O0", "-o", join(workdir, "app"), join(workdir, "main.c")]),
  },
  { id: "delve", fixture: "go-app", program: "main.go", file: "main.go", line: 10, expression: "left + right" },
];

const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};

function workdirFor(benchCase) {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-bench-debug-${benchCase.id}-`)));
  cpSync(join(fixtures, benchCase.fixture), workdir, { recursive: true });
  benchCase.build?.(workdir);
  return workdir;
}

async function residentMemory(session) {
  const pids = new Set(session.knownPids());
  for (const row of await listDescendants(session.adapterPid)) pids.add(row.pid);
  const adapter = (await readResidentMemoryKiB(session.adapterPid)) ?? 0;
  let rest = 0;
  for (const pid of pids) if (pid !== session.adapterPid) rest += (await readResidentMemoryKiB(pid)) ?? 0;
  return { adapterKiB: adapter, debuggeeAndHelpersKiB: rest };
}

async function toolSession(benchCase, workdir) {
  const supervisor = createDebugSupervisor({ debugpyPython, stopBudgetMs: 60_000 });
  const run = createFakeRun({
    plugins: [debugPlugin],
    resources: [
      [DebugSupervisor, supervisor],
      [Workdir, workdir],
      [ConversationId, "bench"],
    ],
  });
  const call = async (input) => {
    const result = await run.call("debug", input);
    if (result.isError) throw new Error(`${JSON.stringify(input)}: ${result.content[0].text}`);
    return result;
  };
  await call({ op: "breakpoints", file: benchCase.file, lines: [benchCase.line] });
  const started = performance.now();
  await call({ op: "launch", program: benchCase.program });
  const firstStopMs = performance.now() - started;
  const memory = await residentMemory(supervisor.session("bench"));
  const timings = { threads: [], stack: [], scopes: [], variables: [], evaluate: [] };
  for (let index = 0; index < iterations; index++) {
    let at = performance.now();
    await call({ op: "threads" });
    timings.threads.push(performance.now() - at);
    at = performance.now();
    const stack = await call({ op: "stack" });
    timings.stack.push(performance.now() - at);
    at = performance.now();
    const scopes = await call({ op: "scopes", frame_id: stack.structured.frames[0].id });
    timings.scopes.push(performance.now() - at);
    at = performance.now();
    await call({ op: "variables", reference: scopes.structured.scopes[0].reference });
    timings.variables.push(performance.now() - at);
    at = performance.now();
    await call({ op: "evaluate", expression: benchCase.expression, frame_id: stack.structured.frames[0].id });
    timings.evaluate.push(performance.now() - at);
  }
  const stepAt = performance.now();
  await call({ op: "step_over" });
  const stepMs = performance.now() - stepAt;
  await supervisor.dispose();
  return { firstStopMs, stepMs, timings, memory };
}

const results = [];
for (const benchCase of cases.filter((candidate) => onlyAdapter === undefined || candidate.id === onlyAdapter)) {
  const loadBefore = loadavg()[0];
  const adapter = ADAPTERS.find((candidate) => candidate.id === benchCase.id);
  const probe = workdirFor(benchCase);
  const located = await adapter.locate({ root: probe, pathVariable: process.env.PATH, debugpyPython, home: homedir() });
  if (!("command" in located)) {
    console.log(`${benchCase.id}: not installed (${located.sought}); skipped`);
    continue;
  }
  const raw = [];
  const tool = [];
  for (let index = 0; index < runs; index++) {
    // Alternate the sides so machine load drifts affect both alike.
    const rawDir = workdirFor(benchCase);
    raw.push(
      await rawSession({
        adapter,
        located,
        program: join(rawDir, benchCase.program),
        cwd: rawDir,
        file: join(rawDir, benchCase.file),
        line: benchCase.line,
        expression: benchCase.expression,
        buildOutput: join(rawDir, "__debug_bin"),
        iterations,
      }),
    );
    tool.push(await toolSession(benchCase, workdirFor(benchCase)));
  }
  const row = {
    adapter: benchCase.id,
    runs,
    iterations,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    raw: {},
    tool: {},
    memory: tool.map((entry) => entry.memory),
  };
  for (const [side, entries] of [
    ["raw", raw],
    ["tool", tool],
  ]) {
    row[side].firstStopMs = median(entries.map((entry) => entry.firstStopMs));
    row[side].stepMs = median(entries.map((entry) => entry.stepMs));
    if (side === "raw") {
      row.raw.firstStopWithFrameMs = median(entries.map((entry) => entry.firstStopWithFrameMs));
      row.raw.stepWithFrameMs = median(entries.map((entry) => entry.stepWithFrameMs));
    }
    for (const op of Object.keys(entries[0].timings))
      row[side][`${op}Ms`] = median(entries.flatMap((entry) => entry.timings[op]));
  }
  results.push(row);
  const ops = Object.keys(row.tool).filter((key) => key !== "firstStopMs");
  const signed = (value, digits) => `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
  console.log(
    `${benchCase.id} (load average ${row.loadAverage.before.toFixed(2)} → ${row.loadAverage.after.toFixed(2)}):`,
  );
  console.log(
    `  first stop   raw ${row.raw.firstStopMs.toFixed(0)} ms (${row.raw.firstStopWithFrameMs.toFixed(0)} with the top frame), tool ${row.tool.firstStopMs.toFixed(0)} ms (${signed(row.tool.firstStopMs - row.raw.firstStopMs, 0)} / ${signed(row.tool.firstStopMs - row.raw.firstStopWithFrameMs, 0)} ms; goal ≤ +150)`,
  );
  console.log(
    `  step         raw ${row.raw.stepMs.toFixed(1)} ms (${row.raw.stepWithFrameMs.toFixed(1)} with the top frame), tool ${row.tool.stepMs.toFixed(1)} ms (${signed(row.tool.stepMs - row.raw.stepMs, 1)} / ${signed(row.tool.stepMs - row.raw.stepWithFrameMs, 1)}; goal ≤ +15)`,
  );
  for (const op of ops.filter((key) => key !== "stepMs"))
    console.log(
      `  ${op.padEnd(12)} raw ${row.raw[op].toFixed(1).padStart(7)}  tool ${row.tool[op].toFixed(1).padStart(7)}  (${signed(row.tool[op] - row.raw[op], 1)}; goal ≤ +15)`,
    );
  console.log(
    `  RSS per session: ${row.memory.map((entry) => `adapter ${(entry.adapterKiB / 1024).toFixed(0)} MB + debuggee/helpers ${(entry.debuggeeAndHelpersKiB / 1024).toFixed(0)} MB`).join("; ")}`,
  );
}
const resultsDirectory = join(here, "..", "results");
mkdirSync(resultsDirectory, { recursive: true });
const file = join(resultsDirectory, `debug-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`results: ${file}`);
