// Benchmark: tool-lsp's `lsp` tool through a real run against a raw vscode-jsonrpc client of the same
// server (typescript-language-server), on a snapshot of this repository's packages/tool-lsp:
// warm overhead (definition, hover, references), cold first answer, diagnostics after a write, and
// the servers' resident memory. Linux only (memory from /proc).
// Usage (from the repo root): npm run build && npm run bench:lsp -w bench -- [--calls 60] [--warmup 5] [--cold-rounds 4] [--edits 12] [--observer] [--fixture-commit <commit>]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readGroupResidentMemoryKiB } from "@runbound/process-kit";
import { lspPlugin } from "@runbound/tool-lsp";
import { measureColdStart } from "./cold-start.mjs";
import { measureDiagnosticsAfterWrite } from "./diagnostics-after-write.mjs";
import { createTypescriptFixture, FIXTURE_COMMIT } from "./fixture.mjs";
import { percentile } from "./percentile.mjs";
import { prepare, TYPESCRIPT_QUERIES } from "./queries.mjs";
import { openRawSide, openToolSide, rawLaunch } from "./sides.mjs";
import { measureOverhead } from "./warm-overhead.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const calls = Number(option("calls", 60));
const warmup = Number(option("warmup", 5));
const coldRounds = Number(option("cold-rounds", 4));
const edits = Number(option("edits", 12));
const fixtureCommit = option("fixture-commit", FIXTURE_COMMIT);
const log = (line) => console.log(line);
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

const server = join(repo, "node_modules/.bin/typescript-language-server");
if (!existsSync(server)) throw new Error(`${server} is missing; run npm ci (tool-lsp has typescript-language-server as a devDependency).`);
if (!existsSync(join(repo, "packages/tool-lsp/dist/index.js"))) throw new Error("tool-lsp is not built; run npm run build first.");
const serverVersion = JSON.parse(readFileSync(join(repo, "node_modules/typescript-language-server/package.json"), "utf8")).version;
const typescriptVersion = JSON.parse(readFileSync(join(repo, "node_modules/typescript/package.json"), "utf8")).version;

// The observer is measured once it is committed and in the build this benchmark imports, or when
// --observer asks for the build's observer before its commit (the output says which).
const observerCommit = execFileSync("git", ["log", "--format=%h %s"], { cwd: repo, encoding: "utf8" })
  .split("\n")
  .find((line) => /^\w+ tool-lsp: diagnostics on write/.test(line));
const observerBuilt = lspPlugin.observers.length > 0;
const observer = observerBuilt && (observerCommit !== undefined || process.argv.includes("--observer"));
if (observerCommit !== undefined && !observerBuilt) log(`Commit \`${observerCommit}\` is in git log but the built tool-lsp has no observer: run \`npx tsc -p tsconfig.build.json\` in packages/tool-lsp.`);

const started = { at: new Date().toISOString(), uptime: uptime(), loadavg: loadavg() };
log(`lsp bench — ${started.at}; typescript-language-server ${serverVersion}, TypeScript ${typescriptVersion}, Node ${process.version}, ${cpus().length} CPUs`);
log(`load: ${started.uptime}`);
const observerState = observer
  ? `WITH the diagnostics-on-write observer (${lspPlugin.observers.map((entry) => entry.name).join(", ")}${observerCommit === undefined ? ", built but NOT yet committed" : `, ${observerCommit.split(" ")[0]}`}): the write call's own result`
  : `WITHOUT the diagnostics-on-write observer (${observerBuilt ? "built but not committed; --observer measures it" : "not in tool-lsp's build"}): write call + \`lsp\` \`diagnostics\` call`;
const head = execFileSync("git", ["log", "-1", "--format=%h"], { cwd: repo, encoding: "utf8" }).trim();
const dirty = execFileSync("git", ["status", "--porcelain", "--", "packages/tool-lsp/src"], { cwd: repo, encoding: "utf8" }).trim().length > 0;
log(`tool-lsp build from HEAD ${head}${dirty ? " with uncommitted changes in packages/tool-lsp/src (the build may include them)" : ""}; fixture: packages/tool-lsp at ${fixtureCommit}`);
log(`diagnostics after write measured ${observerState}`);

const memory = [];
async function sampleMemory(label, toolPid, rawPid) {
  const sample = { label, toolKiB: toolPid === undefined ? undefined : await readGroupResidentMemoryKiB(toolPid), rawKiB: rawPid === undefined ? undefined : await readGroupResidentMemoryKiB(rawPid) };
  memory.push(sample);
  return sample;
}

const toolFixture = createTypescriptFixture(repo, "tool", fixtureCommit);
const rawFixture = createTypescriptFixture(repo, "raw", fixtureCommit);
const toolQueries = TYPESCRIPT_QUERIES.map((query) => prepare(query, toolFixture.workdir));
const rawQueries = TYPESCRIPT_QUERIES.map((query) => prepare(query, rawFixture.workdir));
const launch = await rawLaunch(repo, rawFixture, rawQueries[0].file);
const loading = launch.spec.projectLoading;
const results = { started, serverVersion, typescriptVersion, node: process.version, head, dirty, fixture: `packages/tool-lsp (src + tsconfig) at ${fixtureCommit} with the repository's node_modules`, observer, observerState, options: { calls, warmup, coldRounds, edits } };

try {
  log(`\n1. cold first answer: ${coldRounds} rounds (+1 discarded), fresh server each`);
  results.cold = await measureColdStart({ rounds: coldRounds, toolFixture, toolQuery: toolQueries[0], launch, rawQuery: rawQueries[0], loading, log });

  log("\n2. warm servers: starting one per side");
  const tool = await openToolSide(toolFixture, { observer });
  const raw = await openRawSide(launch);
  try {
    await tool.call("lsp", toolQueries[0].toolInput);
    const rawUri = raw.sync(rawQueries[0].path, rawQueries[0].text, launch.languageId);
    await raw.waitProjectLoaded(loading.beginsWithinMs, loading.budgetMs);
    log(`  memory after start: ${format(await sampleMemory("after start", tool.serverPid(), raw.pid))}`);
    log(`  overhead: ${warmup} warm-up rounds, then ${calls} interleaved pairs per op`);
    results.overhead = await measureOverhead({ tool, raw, rawUri, rawWorkdir: rawFixture.workdir, toolQueries, rawQueries, calls, warmup });
    for (const mismatch of results.overhead.mismatches) log(`  ANSWERS DIFFER — ${mismatch}`);
    log(`  memory after the overhead calls: ${format(await sampleMemory("after overhead", tool.serverPid(), raw.pid))}`);

    log(`\n3. diagnostics after write: ${edits} breaking + ${edits} fixing edits per side`);
    results.diagnostics = await measureDiagnosticsAfterWrite({
      tool,
      raw,
      file: toolQueries[0].file,
      rawPath: rawQueries[0].path,
      rawUri,
      original: toolQueries[0].text,
      languageId: launch.languageId,
      observer,
      edits,
      log,
    });
    log(`  memory after the edits: ${format(await sampleMemory("after edits", tool.serverPid(), raw.pid))}`);
  } finally {
    await tool.close();
    await raw.stop();
  }
} finally {
  toolFixture.remove();
  rawFixture.remove();
}

function format(sample) {
  const mib = (kib) => (kib === undefined ? "?" : `${(kib / 1024).toFixed(0)} MiB`);
  return `tool's server group ${mib(sample.toolKiB)}, raw's ${mib(sample.rawKiB)}`;
}

const ms = (value) => (Number.isNaN(value) ? "—" : value.toFixed(1));
const p50 = (values) => percentile(values, 0.5);
const p95 = (values) => percentile(values, 0.95);
const verdict = (met) => (met ? "met" : "NOT met");
const goals = [];

log(`\nWarm overhead (ms; ${calls} interleaved pairs per op; difference = tool − raw per pair)`);
log("| op | tool p50 | tool p95 | raw p50 | raw p95 | overhead p50 | overhead p95 | goal p50 ≤ 3, p95 ≤ 10 |");
log("|---|---|---|---|---|---|---|---|");
for (const [op, series] of Object.entries(results.overhead.byOp)) {
  const met = p50(series.difference) <= 3 && p95(series.difference) <= 10;
  goals.push({ goal: `overhead ${op}`, met });
  log(`| ${op} | ${ms(p50(series.tool))} | ${ms(p95(series.tool))} | ${ms(p50(series.raw))} | ${ms(p95(series.raw))} | ${ms(p50(series.difference))} | ${ms(p95(series.difference))} | ${verdict(met)} |`);
}

log(`\nCold first definition answer (ms, ${coldRounds} rounds; server start → first full answer)`);
log("| variant | median | min | max | full answers |");
log("|---|---|---|---|---|");
for (const [name, rounds] of Object.entries(results.cold)) {
  const times = rounds.map((round) => round.ms);
  log(`| ${name} | ${ms(p50(times))} | ${ms(Math.min(...times))} | ${ms(Math.max(...times))} | ${rounds.filter((round) => round.full).length}/${rounds.length} |`);
}
const coldTool = p50(results.cold.tool.map((round) => round.ms));
for (const baseline of ["raw, same wait", "raw, first full"]) {
  const coldRaw = p50(results.cold[baseline].map((round) => round.ms));
  const met = coldTool <= coldRaw + 100;
  goals.push({ goal: `cold vs ${baseline}`, met });
  log(`tool − ${baseline}: ${ms(coldTool - coldRaw)} ms (goal ≤ 100): ${verdict(met)}`);
}

log(`\nDiagnostics after write (ms; tool: ${observer ? "the write call, whose result carries the diagnostics" : "write call + lsp diagnostics call"}; raw: write + didChange → publish with the expected state)`);
log("| edit | tool p50 | tool p95 | tool write alone p50 | raw p50 | raw p95 | raw first publish p50 | goal p50 ≤ 600, p95 ≤ 1200 |");
log("|---|---|---|---|---|---|---|---|");
for (const kind of ["breaking", "fixing"]) {
  const toolTimes = results.diagnostics.tool[kind].map((edit) => edit.ms);
  const rawTimes = results.diagnostics.raw[kind].map((edit) => edit.ms);
  const met = p50(toolTimes) <= 600 && p95(toolTimes) <= 1200;
  goals.push({ goal: `diagnostics ${kind}`, met });
  const unexpected = results.diagnostics.tool[kind].filter((edit) => !edit.expected).length;
  log(
    `| ${kind}${unexpected > 0 ? ` (${unexpected} unexpected answers)` : ""} | ${ms(p50(toolTimes))} | ${ms(p95(toolTimes))} | ${ms(p50(results.diagnostics.tool[kind].map((edit) => edit.writeMs)))} | ${ms(p50(rawTimes))} | ${ms(p95(rawTimes))} | ${ms(p50(results.diagnostics.raw[kind].map((edit) => edit.firstMs)))} | ${verdict(met)} |`,
  );
}
log(`first tool answer to a breaking edit: ${JSON.stringify(results.diagnostics.samples.breaking?.slice(0, 400))}`);
log(`first tool answer to a fixing edit: ${JSON.stringify(results.diagnostics.samples.fixing?.slice(0, 400))}`);

const peak = (key) => Math.max(...memory.map((sample) => sample[key] ?? 0));
log(`\nResident memory of the server process groups (typescript-language-server + its tsserver processes): peak tool ${(peak("toolKiB") / 1024).toFixed(0)} MiB, raw ${(peak("rawKiB") / 1024).toFixed(0)} MiB`);
results.memory = memory;
results.goals = goals;
results.finished = { at: new Date().toISOString(), uptime: uptime(), loadavg: loadavg() };
log(`load at the end: ${results.finished.uptime}`);

const resultsDir = join(repo, "bench/results");
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `lsp-${started.at.replace(/[:.]/g, "-")}.json`);
for (const kind of ["breaking", "fixing"]) for (const edit of results.diagnostics.tool[kind]) delete edit.text;
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`\nWrote ${file}`);
