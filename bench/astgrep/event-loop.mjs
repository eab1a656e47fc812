// Benchmark (issue 11 §2): how long one ast_grep call over a large tree holds the event loop. A timer
// due every millisecond records the longest gap between its ticks while the call runs (walk, reads,
// parsing, matching), cold and then warm (parse cache filled), and a third call is cancelled midway to
// time the answer to the abort. Tree: this repository's node_modules, given as an explicit path.
// Usage (from the repo root): npm run build && node bench/astgrep/event-loop.mjs [--language typescript] [--pattern '$A.$B($C)']
import { createRun } from "@runbound/runner-adapter";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "@runbound/tool-astgrep";
import { resultErrorCode, resultText, ToolError, Workdir } from "@runbound/tool-kit";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadAverage } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
};
const language = option("--language", "typescript");
const pattern = option("--pattern", "$A.$B($C)");

const parser = createAstGrepParser({ maxFileBytes: 1 << 30 });
const run = createRun({ plugins: [astGrepPlugin] });
await run.attach(AstGrepParser, { value: parser });
await run.attach(Workdir, { value: repo });

/** One call with the 1 ms watchdog running; `abortAfterMs` cancels it that long after the start. */
async function watched(abortAfterMs) {
  let last = performance.now();
  let longest = 0;
  const watchdog = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const controller = new AbortController();
  let abortedAt;
  const timer =
    abortAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          abortedAt = performance.now();
          controller.abort(
            new ToolError({ code: "cancelled", message: "Tool `ast_grep` was cancelled before it finished." }),
          );
        }, abortAfterMs);
  const started = performance.now();
  const result = await run.call("ast_grep", { pattern, path: "node_modules", language }, { signal: controller.signal });
  const ended = performance.now();
  clearTimeout(timer);
  clearInterval(watchdog);
  histogram.disable();
  longest = Math.max(longest, ended - last);
  return {
    wallMs: ended - started,
    longestStallMs: longest,
    p99DelayMs: histogram.percentile(99) / 1e6,
    code: resultErrorCode(result),
    answeredAfterAbortMs: abortedAt === undefined ? undefined : ended - abortedAt,
    scanned: result.structured?.scanned,
    total: result.structured?.total,
    text: result.isError ? resultText(result).slice(0, 300) : undefined,
  };
}

const loads = [loadAverage()];
const cold = await watched();
loads.push(loadAverage());
const warm = await watched();
loads.push(loadAverage());
const cancelled = await watched(Math.max(50, warm.wallMs / 2));
loads.push(loadAverage());
const cache = parser.parseCache?.stats();
await run.close();

const files = Object.values(cold.scanned ?? {}).reduce((sum, count) => sum + count, 0);
const format = (value) => value.toFixed(1);
console.log(
  `\`${pattern}\` (${language}) over ${repo}/node_modules: ${files} files scanned, ${cold.total} matches; load average ${loads.join(" → ")}.`,
);
console.log("| call | wall ms | longest event-loop stall ms | p99 loop delay ms |");
console.log("|---|---|---|---|");
console.log(`| cold | ${format(cold.wallMs)} | ${format(cold.longestStallMs)} | ${format(cold.p99DelayMs)} |`);
console.log(`| warm | ${format(warm.wallMs)} | ${format(warm.longestStallMs)} | ${format(warm.p99DelayMs)} |`);
console.log(
  `| cancelled midway (${cancelled.code ?? "not cancelled"}) | ${format(cancelled.wallMs)}, answered ${format(cancelled.answeredAfterAbortMs ?? Number.NaN)} ms after the abort | ${format(cancelled.longestStallMs)} | ${format(cancelled.p99DelayMs)} |`,
);
console.log(
  `Parse cache after the calls: ${cache.files} files, ${(cache.usedBytes / 2 ** 20).toFixed(0)} MiB estimated of ${(cache.budgetBytes / 2 ** 20).toFixed(0)}, ${cache.hits} hits, ${cache.misses} misses, ${cache.evicted} evicted.`,
);
if (files < 8000) console.log(`Note: fewer than 8,000 files (${files}); try --language javascript.`);
const resultsDir = join(repo, "bench/results");
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `astgrep-event-loop-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ node: process.version, pattern, language, files, loads, cold, warm, cancelled, cache }, null, 2)}\n`,
);
console.log(`\nWrote ${file}`);
