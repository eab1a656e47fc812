// Benchmark: tool-lsp's `lsp` tool through a real run against a raw vscode-jsonrpc client of the same
// language server — typescript-language-server on this repository's packages/tool-lsp, pyright on a
// generated Python package: warm overhead (definition, hover, references), cold first answer,
// diagnostics after a write, and the servers' resident memory. Linux only (memory from /proc).
// Usage (from the repo root): npm run build && npm run bench:lsp -w bench -- [--servers typescript,python]
//   [--calls 60] [--warmup 5] [--cold-rounds 4] [--edits 12] [--neutral-edits 4] [--observer] [--fixture-commit <commit>]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { lspPlugin } from "@runbound/tool-lsp";
import { FIXTURE_COMMIT } from "./fixture.mjs";
import { measureServer } from "./measure-server.mjs";
import { report } from "./report.mjs";
import { SERVERS } from "./servers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const serverIds = option("servers", "typescript,python").split(",");
const calls = Number(option("calls", 60));
const warmup = Number(option("warmup", 5));
const coldRounds = Number(option("cold-rounds", 4));
const edits = Number(option("edits", 12));
const neutralEdits = Number(option("neutral-edits", 4));
const fixtureCommit = option("fixture-commit", FIXTURE_COMMIT);
const log = (line) => console.log(line);
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

for (const id of serverIds)
  if (SERVERS[id] === undefined)
    throw new Error(
      `\`--servers\` names \`${id}\`, which this benchmark does not know; use ${Object.keys(SERVERS).join(", ")}.`,
    );
if (!existsSync(join(repo, "packages/tool-lsp/dist/index.js")))
  throw new Error("tool-lsp is not built; run npm run build first.");

// The observer is measured once it is committed and in the build this benchmark imports, or when
// --observer asks for the build's observer before its commit (the output says which).
const observerCommit = execFileSync("git", ["log", "--format=%h %s"], { cwd: repo, encoding: "utf8" })
  .split("\n")
  .find((line) => /^\w+ tool-lsp: diagnostics on write/.test(line));
const observerBuilt = lspPlugin.observers.length > 0;
const observer = observerBuilt && (observerCommit !== undefined || process.argv.includes("--observer"));
if (observerCommit !== undefined && !observerBuilt)
  log(
    `Commit \`${observerCommit}\` is in git log but the built tool-lsp has no observer: run \`npx tsc -p tsconfig.build.json\` in packages/tool-lsp.`,
  );

const started = { at: new Date().toISOString(), uptime: uptime(), loadavg: loadavg() };
log(`lsp bench — ${started.at}; Node ${process.version}, ${cpus().length} CPUs; servers ${serverIds.join(", ")}`);
log(`load: ${started.uptime}`);
const observerState = observer
  ? `WITH the diagnostics-on-write observer (${lspPlugin.observers.map((entry) => entry.name).join(", ")}${observerCommit === undefined ? ", built but NOT yet committed" : `, ${observerCommit.split(" ")[0]}`}): the write call's own result`
  : `WITHOUT the diagnostics-on-write observer (${observerBuilt ? "built but not committed; --observer measures it" : "not in tool-lsp's build"}): write call + \`lsp\` \`diagnostics\` call`;
const head = execFileSync("git", ["log", "-1", "--format=%h"], { cwd: repo, encoding: "utf8" }).trim();
const dirty =
  execFileSync("git", ["status", "--porcelain", "--", "packages/tool-lsp/src"], { cwd: repo, encoding: "utf8" }).trim()
    .length > 0;
log(
  `tool-lsp build from HEAD ${head}${dirty ? " with uncommitted changes in packages/tool-lsp/src (the build may include them)" : ""}; fixture: packages/tool-lsp at ${fixtureCommit}`,
);
log(`diagnostics after write measured ${observerState}`);

const results = {
  started,
  node: process.version,
  head,
  dirty,
  fixtureCommit,
  observer,
  observerState,
  options: { calls, warmup, coldRounds, edits, neutralEdits },
  servers: {},
};
const goals = [];
for (const id of serverIds) {
  const server = SERVERS[id];
  if (!existsSync(join(repo, "node_modules/.bin", server.program)))
    throw new Error(
      `${server.program} is missing from node_modules/.bin; run npm ci (tool-lsp has it as a devDependency).`,
    );
  const figures = await measureServer({
    repo,
    server,
    fixtureCommit,
    observer,
    calls,
    warmup,
    coldRounds,
    edits,
    neutralEdits,
    log,
  });
  results.servers[id] = figures;
  goals.push(...report(id, figures, { calls, coldRounds, observer, log }));
}
results.goals = goals;
results.finished = { at: new Date().toISOString(), uptime: uptime(), loadavg: loadavg() };
log(`\nGoals: ${goals.map((goal) => `${goal.server} ${goal.goal} ${goal.met ? "met" : "NOT met"}`).join("; ")}`);
log(`load at the end: ${results.finished.uptime}`);

const resultsDir = join(repo, "bench/results");
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `lsp-${started.at.replace(/[:.]/g, "-")}.json`);
for (const figures of Object.values(results.servers))
  for (const answers of Object.values(figures.diagnostics.tool)) for (const answer of answers) delete answer.text;
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`\nWrote ${file}`);
