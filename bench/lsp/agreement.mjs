// Benchmark (issue 21 §7): how well tool-lsp's diagnostics on write agree with each project's own
// checker, on real projects fetched from npm, PyPI and the Go module proxy: scripted mutations applied
// and reverted with the CLI's real `edit` tool, the checker run after every write as ground truth.
// Measures recall, precision, resolved-recall, "not checked" answers and the write's latency.
// Usage (from the repo root): npm run build && node bench/lsp/agreement.mjs [--languages ts,py,go]
//   [--load] [--mutations N]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { measureLanguage } from "./agreement-language.mjs";
import { startCpuHogs } from "./agreement-load.mjs";
import { waitForNoLeftovers } from "./agreement-processes.mjs";
import { CACHE, PROJECTS } from "./agreement-projects.mjs";
import { examples, report } from "./agreement-report.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const bin = join(repo, "node_modules/.bin");
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const languages = option("languages", "ts,py,go").split(",");
const limit = Number(option("mutations", 20));
const loaded = process.argv.includes("--load");
const log = (line) => console.log(line);
const git = (...args) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();

for (const language of languages)
  if (PROJECTS[language] === undefined)
    throw new Error(`\`--languages\` names \`${language}\`; use ${Object.keys(PROJECTS).join(", ")}.`);
for (const built of ["packages/tool-lsp/dist/index.js", "packages/tool-files/dist/index.js"])
  if (!existsSync(join(repo, built))) throw new Error(`${built} is missing; run npm run build first.`);
// The servers and checkers resolve from the repository's node_modules/.bin (typescript-language-server,
// tsc, pyright) before PATH (gopls, go), as they would for a project with them installed.
process.env.PATH = `${bin}${delimiter}${process.env.PATH}`;

const head = git("log", "-1", "--format=%h %s");
// The build is of the working tree: name what in it is not committed, since others work there too.
const uncommitted = git("status", "--porcelain", "--", "packages/tool-lsp/src")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => line.trim().replace(/^\S+\s+/, ""));
const dirty = uncommitted.length > 0;
const started = { at: new Date().toISOString(), loadavg: loadavg() };
log(
  `lsp agreement bench — ${started.at}; Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`,
);
log(
  `tool-lsp built from ${head}${dirty ? ` with uncommitted changes in ${uncommitted.join(", ")}` : ""}; ${loaded ? "LOADED: two busy-looping node children" : "idle (no added load)"}; cache ${CACHE}`,
);

const hogs = loaded ? startCpuHogs(2) : undefined;
const byLanguage = {};
const wallStarted = performance.now();
try {
  for (const language of languages)
    byLanguage[language] = await measureLanguage({ repo, bin, language, limit, log, ignorePids: hogs?.pids ?? [] });
} finally {
  if (hogs !== undefined) log(`CPU hogs ${(await hogs.stop()).join(", ")} killed and gone from /proc`);
}
const wallSeconds = (performance.now() - wallStarted) / 1000;

const figures = report(byLanguage, { loaded, log });
examples(byLanguage, log);
const left = await waitForNoLeftovers({}, 5_000);
log(
  `\n${left.length === 0 ? "No process started by the benchmark is left." : `LEFT RUNNING: ${left.map((entry) => `${entry.pid} ${entry.command.slice(0, 80)}`).join("; ")}`}`,
);
log(
  `Run time ${wallSeconds.toFixed(0)} s; load average at the end ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`,
);

const resultsDirectory = join(repo, "bench/results");
mkdirSync(resultsDirectory, { recursive: true });
const file = join(resultsDirectory, `lsp-agreement-${started.at.replace(/[:.]/g, "-")}${loaded ? "-load" : ""}.json`);
const results = {
  started,
  finished: { at: new Date().toISOString(), loadavg: loadavg() },
  wallSeconds,
  node: process.version,
  head,
  uncommitted,
  loaded,
  limit,
  figures,
  languages: byLanguage,
  leftovers: left,
};
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`Wrote ${file}`);
