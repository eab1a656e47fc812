// What the sandbox costs a debug session: launch until the first stop at a breakpoint, and the
// resident memory of the adapter, the debuggee and everything below them at that stop, host vs
// bubblewrap, alternating in one run, for debugpy, dlv and lldb on the tool-debug fixtures.
// Usage: npm run build && node bench/sandbox/debug-cost.mjs [--runs 10]
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createBubblewrapPlacement,
  detectBubblewrap,
  hostPlacement,
  listDescendants,
  readResidentMemoryKiB,
} from "@runbound/runtime-kit";
import { createDebugSupervisor } from "@runbound/tool-debug";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "..", "..", "packages", "tool-debug", "src", "__fixtures__");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 10) || 10;
const debugpyPython =
  process.env.RUNBOUND_DEBUGPY_PYTHON ?? join(homedir(), ".cache", "runbound", "debugpy-venv", "bin", "python");
if (!existsSync(debugpyPython)) throw new Error(`No debugpy at ${debugpyPython}: run . .ci/install.d/debug.sh first.`);
const bubblewrap = await detectBubblewrap();
if (!bubblewrap.available) throw new Error(`No sandbox here: ${bubblewrap.reason}`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One workdir per adapter for the whole run: dlv's sandboxed build cache is per project, warm after the warm-up. */
function workdirFor(fixture, prepare) {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-bench-debug-${fixture}-`)));
  cpSync(join(fixtures, fixture), workdir, { recursive: true });
  prepare?.(workdir);
  return workdir;
}

/** The 1-based line of `file` in `workdir` holding `needle`, for a breakpoint. */
const lineOf = (workdir, file, needle) =>
  readFileSync(join(workdir, file), "utf8")
    .split("\n")
    .findIndex((line) => line.includes(needle)) + 1;

const cWorkdir = workdirFor("c-app", (workdir) =>
  execFileSync("gcc", ["-g", "-O0", "-o", join(workdir, "app"), join(workdir, "main.c")]),
);
const cases = [
  { adapter: "debugpy", workdir: workdirFor("python-app"), program: "app.py", file: "app.py", line: 5 },
  { adapter: "delve", workdir: workdirFor("go-app"), program: ".", file: "main.go", line: 11 },
  { adapter: "lldb", workdir: cWorkdir, program: "app", file: "main.c", line: lineOf(cWorkdir, "main.c", "return") },
];

async function measure(testCase, kind) {
  const placement =
    kind === "sandbox"
      ? createBubblewrapPlacement({ bwrap: bubblewrap.bwrap, version: bubblewrap.version, workdir: testCase.workdir })
      : hostPlacement;
  const supervisor = createDebugSupervisor({ placement, debugpyPython });
  try {
    supervisor.rememberBreakpoints("bench", join(testCase.workdir, testCase.file), [{ line: testCase.line }]);
    const started = performance.now();
    const { session, outcome } = await supervisor.start("bench", testCase.workdir, {
      adapter: testCase.adapter,
      request: "launch",
      program: join(testCase.workdir, testCase.program),
      args: [],
      onProgress: () => undefined,
    });
    const stopMs = performance.now() - started;
    if (outcome.kind !== "stopped") throw new Error(`${testCase.adapter} did not stop: ${JSON.stringify(outcome)}`);
    const pids = [session.adapterPid, ...(await listDescendants(session.adapterPid)).map((row) => row.pid)];
    const kib = (await Promise.all(pids.map((pid) => readResidentMemoryKiB(pid)))).reduce(
      (sum, value) => sum + (value ?? 0),
      0,
    );
    return { stopMs, rssKiB: kib };
  } finally {
    await supervisor.dispose();
  }
}

const results = {};
for (const testCase of cases) {
  const samples = { host: [], sandbox: [] };
  await measure(testCase, "host");
  await measure(testCase, "sandbox");
  for (let run = 0; run < runs; run += 1) {
    for (const kind of run % 2 === 0 ? ["host", "sandbox"] : ["sandbox", "host"])
      samples[kind].push(await measure(testCase, kind));
  }
  const summary = (kind) => ({
    stopMedianMs: Math.round(median(samples[kind].map((sample) => sample.stopMs)) * 10) / 10,
    rssMedianMiB: Math.round(median(samples[kind].map((sample) => sample.rssKiB)) / 102.4) / 10,
  });
  const host = summary("host");
  const sandbox = summary("sandbox");
  results[testCase.adapter] = {
    host,
    sandbox,
    stopCostMs: Math.round((sandbox.stopMedianMs - host.stopMedianMs) * 10) / 10,
    rssCostMiB: Math.round((sandbox.rssMedianMiB - host.rssMedianMiB) * 10) / 10,
  };
  console.log(
    `${testCase.adapter}: first stop ${host.stopMedianMs} ms on the host, ${sandbox.stopMedianMs} ms sandboxed (${results[testCase.adapter].stopCostMs >= 0 ? "+" : ""}${results[testCase.adapter].stopCostMs} ms); RSS ${host.rssMedianMiB} MiB vs ${sandbox.rssMedianMiB} MiB (${results[testCase.adapter].rssCostMiB >= 0 ? "+" : ""}${results[testCase.adapter].rssCostMiB} MiB), medians of ${runs}`,
  );
}
const out = join(here, "..", "results");
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, `sandbox-debug-cost-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
  JSON.stringify({ bubblewrap: bubblewrap.version, runs, results }, null, 2),
);
