// Benchmark (issue 11 §2): the parse cache. One process makes a sequence of ast_grep calls on the
// effect@3.17.0 + rxjs@7.8.1 TypeScript sources (fetched with `npm pack` into ~/.cache, see corpus.mjs):
// a first call, the same no-literal pattern again, then different patterns on the warm cache. Each call
// is set against a fresh `ast-grep run --json=stream` of the same pattern.
// Usage (from the repo root): npm run build && node bench/astgrep/warm.mjs [--runs 5]
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { effectRxjsCorpus } from "./corpus.mjs";
import { loadAverage, median, timeBinary, timed } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const cli = join(repo, "node_modules/.bin/ast-grep");
const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex === -1 ? 5 : Number(process.argv[runsIndex + 1]);
if (!existsSync(cli)) throw new Error(`${cli} is missing; run npm ci (bench depends on @ast-grep/cli).`);
if (!existsSync(timeBinary)) throw new Error(`${timeBinary} is missing; install GNU time (apt-get install time).`);
if (!existsSync(join(repo, "node_modules/@runbound/tool-astgrep/dist/index.js")))
  throw new Error("Build first: npm run build");

const corpus = effectRxjsCorpus();
const budgetMib = 256;
// What each call is, and the goal of its time against the CLI's (issue 11 §2).
// The first call is timed twice: the call itself (what a run's first search waits for, as the CLI's
// wall time is what each of its searches waits for), and from the tool's process start, which adds
// Node's boot and the imports a host pays once per run (the CLI's start is part of every call).
const steps = [
  { label: "first call (cold)", pattern: "$A.$B($C)", goal: 1.2 },
  {
    label: "first call (cold), from process start: Node's boot and imports included",
    pattern: "$A.$B($C)",
    sinceStart: true,
    call: 0,
  },
  { label: "same pattern again (warm)", pattern: "$A.$B($C)", goal: 0.33 },
  { label: "different pattern, no literal (warm)", pattern: "$F($A, $B)", goal: 0.5 },
  { label: "different pattern, with a literal (warm)", pattern: "return $X", goal: 0.5 },
];
const patterns = [...new Set(steps.map((step) => step.pattern))];
const cliSeconds = Object.fromEntries(patterns.map((pattern) => [pattern, []]));
const cliCounts = {};
const toolRuns = [];
const loads = [loadAverage()];
for (let index = 0; index < runs; index++) {
  // Alternate so load changes on the machine hit both sides alike.
  for (const pattern of patterns) {
    const cliRun = timed(cli, ["run", "-p", pattern, "-l", "ts", "--json=stream", "."], corpus);
    cliSeconds[pattern].push(cliRun.wallS);
    cliCounts[pattern] = cliRun.stdout.split("\n").filter((line) => line.length > 0).length;
  }
  const sequence = {
    workdir: corpus,
    language: "typescript",
    patterns: steps.filter((step) => step.call === undefined).map((step) => step.pattern),
    parseCacheBytes: budgetMib * 2 ** 20,
  };
  const tool = timed(process.execPath, [join(here, "warm-child.mjs"), JSON.stringify(sequence)], repo);
  if (tool.status !== 0) throw new Error(`warm-child failed: ${tool.stdout}`);
  toolRuns.push({ peakMb: tool.peakMb, ...JSON.parse(tool.stdout) });
  loads.push(loadAverage());
}

// The call of each step: the process-start row re-times the first call.
const calls = steps.map(
  (step, position) =>
    step.call ?? position - steps.slice(0, position).filter((earlier) => earlier.call !== undefined).length,
);
const rows = steps.map((step, position) => {
  const call = calls[position];
  const cliS = median(cliSeconds[step.pattern]);
  const toolS = median(
    toolRuns.map((run) => (step.sinceStart ? run.calls[call].sinceStartMs : run.calls[call].wallMs) / 1000),
  );
  return {
    ...step,
    cliS,
    toolS,
    ratio: toolS / cliS,
    met: step.goal === undefined ? undefined : toolS / cliS <= step.goal,
    cliMatches: cliCounts[step.pattern],
    toolMatches: toolRuns[0].calls[call].total,
  };
});
const peakMb = Math.max(...toolRuns.map((run) => run.peakMb));
const baselineMb = median(toolRuns.map((run) => run.baselineRssMb));
const format = (value, digits = 2) => value.toFixed(digits);
console.log(
  `${corpus}: medians of ${runs} runs; load average ${loads.join(" → ")}. CLI: a fresh \`ast-grep run --json=stream\` per pattern; tool: one process, the calls in order, parse cache budget ${budgetMib} MiB.`,
);
console.log("| call | pattern | CLI matches | tool matches | CLI wall s | tool s | ratio | goal |");
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) {
  const goal = row.goal === undefined ? "—" : `≤ ${row.goal}× ${row.met ? "met" : "not met"}`;
  console.log(
    `| ${row.label} | \`${row.pattern}\` | ${row.cliMatches} | ${row.toolMatches} | ${format(row.cliS)} | ${format(row.toolS)} | ${format(row.ratio)}× | ${goal} |`,
  );
}
const cache = toolRuns[0].cache;
console.log(
  `\nTool peak RSS ${format(peakMb, 0)} MB (before the first call ${format(baselineMb, 0)} MB; above it ${format(peakMb - baselineMb, 0)} MB, budget ${budgetMib} MiB ${peakMb - baselineMb <= budgetMib * 1.048576 ? "— within" : "— over"}). Cache after the run: ${cache.files} files, ${format(cache.usedBytes / 2 ** 20, 0)} MiB estimated, ${cache.hits} hits, ${cache.misses} misses, ${cache.evicted} evicted.`,
);
const resultsDir = join(repo, "bench/results");
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `astgrep-warm-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ runs, node: process.version, loads, rows, peakMb, baselineMb, cliSeconds, toolRuns }, null, 2)}\n`,
);
console.log(`\nWrote ${file}`);
