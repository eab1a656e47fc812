// Benchmark: runbound's ast_grep against `ast-grep run --json=stream` (@ast-grep/cli) on the same corpus.
// Usage (from the repo root): npm run build && node bench/astgrep/run.mjs [--runs 5]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize, timeBinary, timed } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const cli = join(repo, "node_modules/.bin/ast-grep");
const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex === -1 ? 5 : Number(process.argv[runsIndex + 1]);

if (!existsSync(cli)) throw new Error(`${cli} is missing; run npm ci (bench depends on @ast-grep/cli).`);
if (!existsSync(timeBinary))
  throw new Error(
    `${timeBinary} is missing; install GNU time (apt-get install time) to measure CPU and peak memory of child processes.`,
  );
if (!existsSync(join(repo, "node_modules/@runbound/tool-astgrep/dist/index.js")))
  throw new Error("Build first: npm run build");

const cases = [
  {
    name: "ts parse-bound, no literal",
    workdir: repo,
    path: "node_modules",
    language: "typescript",
    cliLanguage: "ts",
    pattern: "$A.$B($C, $D, $E, $F, $G, $H)",
  },
  {
    name: "ts parse-bound, literal",
    workdir: repo,
    path: "node_modules",
    language: "typescript",
    cliLanguage: "ts",
    pattern: "debugger",
  },
  {
    name: "ts dense",
    workdir: repo,
    path: "node_modules",
    language: "typescript",
    cliLanguage: "ts",
    pattern: "$A.$B",
  },
];
const python = readdirSync("/usr/lib", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^python3\.\d+$/.test(entry.name))
  .map((entry) => join("/usr/lib", entry.name))
  .sort()
  .at(-1);
if (python === undefined) {
  console.log("No /usr/lib/python3.* tree here: the Python cases are skipped.");
} else {
  // lang-python reads .py (and runbound adds .pyi); the CLI's python also reads other extensions, so restrict it.
  const globs = ["--globs", "*.py", "--globs", "*.pyi"];
  cases.push(
    {
      name: "py parse-bound, no literal",
      workdir: python,
      path: ".",
      language: "python",
      cliLanguage: "py",
      cliArguments: globs,
      pattern: "$A($B, $C, $D, $E, $F, $G, $H)",
    },
    {
      name: "py dense",
      workdir: python,
      path: ".",
      language: "python",
      cliLanguage: "py",
      cliArguments: globs,
      pattern: "self.$A",
    },
  );
}

function cliArguments(benchCase) {
  return [
    "run",
    "-p",
    benchCase.pattern,
    "-l",
    benchCase.cliLanguage,
    ...(benchCase.cliArguments ?? []),
    "--json=stream",
    benchCase.path,
  ];
}

function compareMatchSets(benchCase) {
  const cliRun = timed(cli, cliArguments(benchCase), benchCase.workdir);
  const cliKeys = new Set(
    cliRun.stdout
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => {
        const match = JSON.parse(line);
        const { start, end } = match.range;
        return `${resolve(benchCase.workdir, match.file)}:${start.line}:${start.column}-${end.line}:${end.column}`;
      }),
  );
  const toolRun = spawnSync(process.execPath, [join(here, "tool-child.mjs"), JSON.stringify(benchCase), "verify"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (toolRun.status !== 0) throw new Error(`tool verify failed: ${toolRun.stderr}`);
  const toolKeys = new Set(JSON.parse(toolRun.stdout).keys);
  const onlyCli = [...cliKeys].filter((key) => !toolKeys.has(key));
  const onlyTool = [...toolKeys].filter((key) => !cliKeys.has(key));
  return {
    cli: cliKeys.size,
    tool: toolKeys.size,
    equal: onlyCli.length === 0 && onlyTool.length === 0,
    onlyCli: onlyCli.slice(0, 5),
    onlyTool: onlyTool.slice(0, 5),
    onlyCliCount: onlyCli.length,
    onlyToolCount: onlyTool.length,
  };
}

const results = [];
for (const benchCase of cases) {
  process.stdout.write(`${benchCase.name}: checking match sets… `);
  const matchSets = compareMatchSets(benchCase);
  process.stdout.write(
    `${matchSets.equal ? "identical" : "DIFFERENT"} (${matchSets.cli} vs ${matchSets.tool}); timing ${runs} runs each… `,
  );
  const cliRuns = [];
  const toolRuns = [];
  for (let index = 0; index < runs; index++) {
    // Alternate so load changes on the machine hit both sides alike.
    cliRuns.push(timed(cli, cliArguments(benchCase), benchCase.workdir));
    const tool = timed(process.execPath, [join(here, "tool-child.mjs"), JSON.stringify(benchCase)], repo);
    toolRuns.push({ ...tool, inProcess: JSON.parse(tool.stdout) });
  }
  const row = {
    case: benchCase.name,
    pattern: benchCase.pattern,
    corpus: `${benchCase.workdir}/${benchCase.path}`,
    matches: toolRuns[0].inProcess.total,
    shown: toolRuns[0].inProcess.shown,
    ...summarize(cliRuns, toolRuns),
    matchSets,
  };
  row.ratio = { wall: row.tool.wallS / row.cli.wallS, cpu: row.tool.cpuS / row.cli.cpuS };
  results.push(row);
  console.log("done");
}

const format = (value, digits = 2) => value.toFixed(digits);
console.log(
  `\nMedians of ${runs} runs; each side is a fresh process (node startup + import + grammar registration included for the tool); CPU = user + sys.`,
);
console.log(
  "| case | matches | CLI wall s | CLI CPU s | tool wall s | tool CPU s | wall ratio | CPU ratio | tool call wall s | CLI peak MB | tool peak MB | same match set |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const row of results) {
  console.log(
    `| ${row.case} \`${row.pattern}\` | ${row.matches} | ${format(row.cli.wallS)} | ${format(row.cli.cpuS)} | ${format(row.tool.wallS)} | ${format(row.tool.cpuS)} | ${format(row.ratio.wall)}× | ${format(row.ratio.cpu)}× | ${format(row.tool.callWallS)} | ${format(row.cli.peakMb, 0)} | ${format(row.tool.peakMb, 0)} | ${row.matchSets.equal ? "yes" : `no (${row.matchSets.onlyCliCount} only CLI, ${row.matchSets.onlyToolCount} only tool)`} |`,
  );
}
const resultsDir = join(repo, "bench/results");
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `astgrep-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify({ runs, node: process.version, results }, null, 2)}\n`);
console.log(`\nWrote ${file}`);
