// What the sandbox costs a kernel: start time (factory.start until the kernel answers ready) and
// resident memory of its process group, host vs bubblewrap, alternating in one run on one machine.
// Usage: npm run build && node bench/sandbox/start-cost.mjs [--runs 10]
import { mkdtempSync, realpathSync, symlinkSync, existsSync, writeFileSync, mkdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createBubblewrapPlacement,
  detectBubblewrap,
  hostPlacement,
  readGroupResidentMemoryKiB,
} from "@runbound/runtime-kit";
import { createHostKernelFactory } from "@runbound/tool-eval";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 10) || 10;
const venv = process.env.RUNBOUND_EVAL_TEST_VENV ?? join(homedir(), ".cache", "runbound", "eval-venv");
if (!existsSync(join(venv, "bin", "python")))
  throw new Error(`No eval venv at ${venv}: run . .ci/install.d/eval.sh first.`);
const bubblewrap = await detectBubblewrap();
if (!bubblewrap.available) throw new Error(`No sandbox here: ${bubblewrap.reason}`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(language, placementKind) {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-bench-sandbox-")));
  symlinkSync(venv, join(workdir, ".venv"));
  const placement =
    placementKind === "sandbox"
      ? createBubblewrapPlacement({ bwrap: bubblewrap.bwrap, version: bubblewrap.version, workdir })
      : hostPlacement;
  const factory = createHostKernelFactory({ python: language === "pyodide" ? "pyodide" : "native", placement });
  const started = performance.now();
  const kernel = await factory.start(language === "pyodide" ? "python" : language, {
    workdir,
    signal: new AbortController().signal,
  });
  const startMs = performance.now() - started;
  const rssKiB = await readGroupResidentMemoryKiB(kernel.pid);
  await factory.dispose();
  return { startMs, rssKiB };
}

const results = {};
for (const language of ["python", "javascript", "pyodide"]) {
  const samples = { host: [], sandbox: [] };
  // Pyodide restores a ~30 MB memory snapshot per start: fewer runs, the same alternation.
  const languageRuns = language === "pyodide" ? Math.min(runs, 5) : runs;
  // One warm-up each (page cache, the interpreter's .pyc files), then alternating pairs.
  await measure(language, "host");
  await measure(language, "sandbox");
  for (let run = 0; run < languageRuns; run += 1) {
    for (const kind of run % 2 === 0 ? ["host", "sandbox"] : ["sandbox", "host"])
      samples[kind].push(await measure(language, kind));
  }
  const summary = (kind) => ({
    startMedianMs: Math.round(median(samples[kind].map((sample) => sample.startMs)) * 10) / 10,
    rssMedianMiB: Math.round(median(samples[kind].map((sample) => sample.rssKiB)) / 102.4) / 10,
  });
  const host = summary("host");
  const sandbox = summary("sandbox");
  results[language] = {
    host,
    sandbox,
    startCostMs: Math.round((sandbox.startMedianMs - host.startMedianMs) * 10) / 10,
    rssCostMiB: Math.round((sandbox.rssMedianMiB - host.rssMedianMiB) * 10) / 10,
  };
  console.log(
    `${language}: start ${host.startMedianMs} ms on the host, ${sandbox.startMedianMs} ms sandboxed (+${results[language].startCostMs} ms); RSS ${host.rssMedianMiB} MiB vs ${sandbox.rssMedianMiB} MiB (+${results[language].rssCostMiB} MiB), medians of ${languageRuns}`,
  );
}
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "results");
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, `sandbox-start-cost-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
  JSON.stringify({ bubblewrap: bubblewrap.version, runs, results }, null, 2),
);
