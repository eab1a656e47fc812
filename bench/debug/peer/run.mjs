// Five scripted debugging tasks through runbound's `debug` tool and through mcp-debugger 0.24
// (npm @debugmcp/mcp-debugger), both over MCP with the official SDK client: tool calls and characters
// returned until the answer shows in a result, plus the calls that end the session.
// Usage: node bench/debug/peer/run.mjs [--runs 3] [--tasks a,b,c,d,e]
//
// Goal (issue 26, item 7): no more calls than the peer on any task, fewer in total.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DEPENDENCY, TASKS } from "./tasks.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..", "..");
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "runbound");
const peerPrefix = join(cache, "bench-peers", "mcp-debugger");
const peerPackage = join(peerPrefix, "node_modules", "@debugmcp", "mcp-debugger");
// The interpreter with debugpy and pytest that .ci/install.d/debug.sh sets up; only copied, never changed.
const debugpyVenv = join(cache, "debugpy-venv");
// The bench's own interpreter: a copy of that venv with the task (c) dependency in its site-packages.
const benchVenv = join(cache, "bench-peers", "py-venv");
const python = join(benchVenv, "bin", "python");

const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? fallback : process.argv[index + 1];
};
const runs = Number(argument("runs", "3"));
const wanted = new Set(argument("tasks", "a,b,c,d,e").split(","));
// The middle value (the upper one of two).
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// --- Setup -----------------------------------------------------------------------------------------

// The peer is installed outside the repository (and its lockfile): the newest 0.24.x, or else the
// newest version before it.
function installPeer() {
  const installed = existsSync(join(peerPackage, "package.json"))
    ? JSON.parse(readFileSync(join(peerPackage, "package.json"), "utf8")).version
    : undefined;
  if (installed?.startsWith("0.24.")) return installed;
  const versions = JSON.parse(
    execFileSync("npm", ["view", "@debugmcp/mcp-debugger", "versions", "--json"], { encoding: "utf8" }),
  );
  const byNumber = (v) => v.split(".").map(Number);
  const older = (a, b) => byNumber(a).reduce((order, n, i) => order || n - byNumber(b)[i], 0);
  const candidates = versions.filter((v) => /^\d+\.\d+\.\d+$/.test(v)).sort(older);
  const version =
    candidates.filter((v) => v.startsWith("0.24.")).at(-1) ?? candidates.filter((v) => older(v, "0.24.0") < 0).at(-1);
  if (version === undefined) throw new Error(`no version of @debugmcp/mcp-debugger near 0.24: ${versions.join(", ")}`);
  mkdirSync(peerPrefix, { recursive: true });
  execFileSync(
    "npm",
    ["install", "--prefix", peerPrefix, "--no-save", "--no-audit", "--no-fund", `@debugmcp/mcp-debugger@${version}`],
    {
      stdio: "inherit",
    },
  );
  return version;
}

// A copy (not a change) of the shared debugpy venv: python is a symlink to the base interpreter and
// the venv resolves its prefix from where it is, so a copy works for `python -m ...` and scripts run by
// path. Both sides get this interpreter, for the adapter and the program alike.
function prepareVenv() {
  if (!existsSync(join(debugpyVenv, "bin", "python")))
    throw new Error(`${debugpyVenv} is missing: run .ci/install.d/debug.sh`);
  const site = join(benchVenv, "lib", pythonDirectoryName(debugpyVenv), "site-packages");
  if (!existsSync(join(site, DEPENDENCY.name))) {
    rmSync(benchVenv, { recursive: true, force: true });
    cpSync(debugpyVenv, benchVenv, { recursive: true, verbatimSymlinks: true });
    mkdirSync(join(site, DEPENDENCY.name));
  }
  writeFileSync(join(site, DEPENDENCY.name, "__init__.py"), DEPENDENCY.source);
  return { site, pytestMain: join(site, "pytest", "__main__.py") };
}
function pythonDirectoryName(venv) {
  return execFileSync(
    join(venv, "bin", "python"),
    ["-c", "import sys;print(f'python{sys.version_info[0]}.{sys.version_info[1]}')"],
    {
      encoding: "utf8",
    },
  ).trim();
}

// Each task gets a fresh directory under one base, so the leftover-process check can look for it.
function writeTask(base, task, run) {
  const dir = join(base, `${task.id}-${run}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(task.files)) writeFileSync(join(dir, name), text);
  return dir;
}
const lineOf = (dir) => (file, text) => {
  const index = readFileSync(join(dir, file), "utf8")
    .split("\n")
    .findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${file} has no line with ${text}`);
  return index + 1;
};

// --- One side: an MCP server over stdio and a counting client ------------------------------------------

async function startSide(side, dir, base) {
  const env = {
    ...process.env,
    // As if the bench venv were activated: its python first on PATH for both servers.
    PATH: `${join(benchVenv, "bin")}:${process.env.PATH}`,
    RUNBOUND_DEBUGPY_PYTHON: python,
    // The peer keeps per-session logs under $TMPDIR/debug-mcp-server: inside the run's base, so they
    // go with it. (Ours runs its adapter in a sandbox with a private /tmp.)
    ...(side === "peer" ? { TMPDIR: join(base, "peer-tmp") } : {}),
  };
  const [command, args] =
    side === "ours"
      ? [process.execPath, [join(repo, "packages", "cli", "dist", "bin.js"), "mcp", "--workdir", dir]]
      : [process.execPath, [join(peerPackage, "dist", "cli.mjs"), "stdio"]];
  const transport = new StdioClientTransport({ command, args, cwd: dir, env, stderr: "pipe" });
  // Drain stderr (the peer logs there): a full pipe would stall the server. Keep the tail for errors.
  let stderrTail = "";
  transport.stderr?.on("data", (chunk) => {
    stderrTail = (stderrTail + chunk).slice(-4000);
  });
  const client = new Client({ name: "runbound-bench-debug-peer", version: "0.0.0" });
  const started = performance.now();
  await client.connect(transport);
  return { client, transport, startMs: performance.now() - started, stderrTail: () => stderrTail, pid: transport.pid };
}

// The characters an agent reads: the text content of each result. Our `debug` tool also returns
// structuredContent (the same answer as JSON, for clients that read it instead of the text; the peer
// sets none): it is counted apart, since a client passes one or the other to the model, not both.
function resultText(result) {
  return (result.content ?? []).map((part) => (part.type === "text" ? part.text : JSON.stringify(part))).join("\n");
}

const answered = (task, text) => [task.answer].flat().every((piece) => text.includes(piece));

async function runSide(side, task, dir, paths, base) {
  const server = await startSide(side, dir, base);
  const ctx = { dir, python, pytestMain: paths.pytestMain, line: lineOf(dir), sid: undefined };
  const calls = [];
  const call = async (step) => {
    const [name, args] = step(ctx);
    const started = performance.now();
    let text;
    let structuredChars = 0;
    try {
      const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      text = resultText(result);
      if (result.structuredContent !== undefined) structuredChars = JSON.stringify(result.structuredContent).length;
    } catch (error) {
      text = `client error: ${error.message}`;
    }
    const ms = performance.now() - started;
    if (name === "create_debug_session") ctx.sid = /"sessionId":\s*"([^"]+)"/.exec(text)?.[1];
    calls.push({ name, args, chars: text.length, structuredChars, ms: Math.round(ms), text });
    return text;
  };
  const started = performance.now();
  let found = false;
  // Steps run until a result shows the answer: a competent agent stops looking once it has it.
  for (const step of task[side]) {
    if (answered(task, await call(step))) {
      found = true;
      break;
    }
  }
  const toAnswer = calls.length;
  const answerMs = performance.now() - started;
  for (const step of task[`${side}Cleanup`]) await call(step);
  const wallMs = performance.now() - started;
  await server.client.close();
  return {
    found,
    calls: calls.length,
    callsToAnswer: toAnswer,
    chars: calls.reduce((sum, c) => sum + c.chars, 0),
    charsToAnswer: calls.slice(0, toAnswer).reduce((sum, c) => sum + c.chars, 0),
    structuredChars: calls.reduce((sum, c) => sum + c.structuredChars, 0),
    answerMs: Math.round(answerMs),
    wallMs: Math.round(wallMs),
    serverStartMs: Math.round(server.startMs),
    transcript: calls,
    ...(found ? {} : { stderrTail: server.stderrTail() }),
  };
}

// --- Leftovers: every process of the run must be gone once its clients are closed -------------------

// Processes whose command line names the run's task base, the bench venv or the peer's package:
// the servers, the debug adapters, bubblewrap and the debuggees (each started from one of these).
function leftovers(base) {
  const marks = [base, benchVenv, peerPackage];
  return execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && marks.some((mark) => line.includes(mark)))
    .map((line) => ({ pid: Number(line.split(/\s+/)[0]), args: line.replace(/^\d+\s+/, "").slice(0, 200) }))
    .filter((proc) => proc.pid !== process.pid);
}
async function waitForNoLeftovers(base) {
  for (let waited = 0; waited < 10_000; waited += 250) {
    if (leftovers(base).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const stuck = leftovers(base);
  // Report them, then end them by id: they were started by this run.
  for (const proc of stuck) {
    try {
      process.kill(proc.pid, "SIGKILL");
    } catch {
      // Gone in the meantime.
    }
  }
  return stuck;
}

// --- Main --------------------------------------------------------------------------------------------

if (!existsSync(join(repo, "packages", "cli", "dist", "bin.js"))) {
  execFileSync("npm", ["run", "build"], { cwd: join(repo, "packages", "cli"), stdio: "inherit" });
}
const peerVersion = installPeer();
const paths = prepareVenv();
const debugpyVersion = execFileSync(python, ["-c", "import debugpy;print(debugpy.__version__)"], {
  encoding: "utf8",
}).trim();
const uptimeBefore = execFileSync("uptime", { encoding: "utf8" }).trim();
console.log(`peer @debugmcp/mcp-debugger ${peerVersion}; debugpy ${debugpyVersion}; node ${process.version}`);
console.log(uptimeBefore);

const base = realpathSync(mkdtempSync(join(tmpdir(), "runbound-bench-debug-peer-")));
mkdirSync(join(base, "peer-tmp"));
const results = [];
let stuckProcesses = [];
try {
  for (const task of TASKS.filter((t) => wanted.has(t.id))) {
    const perRun = { ours: [], peer: [] };
    for (let run = 0; run < runs; run += 1) {
      // Alternate which side goes first, so neither always meets a warm page cache.
      for (const side of run % 2 === 0 ? ["ours", "peer"] : ["peer", "ours"]) {
        const dir = writeTask(base, task, `${side}-${run}`);
        const outcome = await runSide(side, task, dir, paths, base);
        perRun[side].push(outcome);
        stuckProcesses.push(...(await waitForNoLeftovers(base)));
        console.log(
          `  ${task.id} ${side.padEnd(4)} run ${run + 1}: ${outcome.found ? "found" : "NOT FOUND"}, ${outcome.callsToAnswer} + ${outcome.calls - outcome.callsToAnswer} calls, ${outcome.chars} chars, ${outcome.wallMs} ms`,
        );
      }
    }
    const summary = (list) => ({
      found: list.every((o) => o.found),
      calls: list[0].calls,
      callsToAnswer: list[0].callsToAnswer,
      chars: median(list.map((o) => o.chars)),
      charsToAnswer: median(list.map((o) => o.charsToAnswer)),
      structuredChars: median(list.map((o) => o.structuredChars)),
      answerMs: median(list.map((o) => o.answerMs)),
      wallMs: median(list.map((o) => o.wallMs)),
      // Call counts are scripted; they differ between runs only if a step failed.
      callsVary: new Set(list.map((o) => o.calls)).size > 1,
    });
    results.push({
      id: task.id,
      title: task.title,
      question: task.question,
      answer: task.answer,
      ours: { ...summary(perRun.ours), runs: perRun.ours },
      peer: { ...summary(perRun.peer), runs: perRun.peer },
    });
  }
} finally {
  stuckProcesses.push(...(await waitForNoLeftovers(base)));
  rmSync(base, { recursive: true, force: true });
}

// --- Report --------------------------------------------------------------------------------------------

const cell = (s) => `${s.calls} (${s.callsToAnswer} + ${s.calls - s.callsToAnswer})`;
const lines = [
  "| task | calls ours (answer + end) | calls peer | chars ours: text (structuredContent) | chars peer | answer ours / peer, ms | found ours / peer |",
  "|---|---|---|---|---|---|---|",
];
for (const r of results) {
  lines.push(
    `| ${r.id} ${r.title} | ${cell(r.ours)} | ${cell(r.peer)} | ${r.ours.chars.toLocaleString("en")} (${r.ours.structuredChars.toLocaleString("en")}) | ${r.peer.chars.toLocaleString("en")} | ${r.ours.answerMs.toLocaleString("en")} / ${r.peer.answerMs.toLocaleString("en")} | ${r.ours.found ? "yes" : "no"} / ${r.peer.found ? "yes" : "no"} |`,
  );
}
const total = (side, key) => results.reduce((sum, r) => sum + r[side][key], 0);
lines.push(
  `| total | ${total("ours", "calls")} (${total("ours", "callsToAnswer")} + ${total("ours", "calls") - total("ours", "callsToAnswer")}) | ${total("peer", "calls")} (${total("peer", "callsToAnswer")} + ${total("peer", "calls") - total("peer", "callsToAnswer")}) | ${total("ours", "chars").toLocaleString("en")} (${total("ours", "structuredChars").toLocaleString("en")}) | ${total("peer", "chars").toLocaleString("en")} | ${total("ours", "answerMs").toLocaleString("en")} / ${total("peer", "answerMs").toLocaleString("en")} | |`,
);
const noMoreOnAny = results.every((r) => r.ours.found && r.ours.calls <= r.peer.calls);
const fewerInTotal = total("ours", "calls") < total("peer", "calls");
const goal = noMoreOnAny && fewerInTotal;
console.log(`\n${lines.join("\n")}\n`);
console.log(
  `goal (no more calls than the peer on any task, fewer in total): ${goal ? "met" : "NOT met"}` +
    (noMoreOnAny
      ? ""
      : ` — more calls or not found on ${results
          .filter((r) => !(r.ours.found && r.ours.calls <= r.peer.calls))
          .map((r) => r.id)
          .join(", ")}`),
);
console.log(
  stuckProcesses.length === 0
    ? "no process of the run was left over"
    : `LEFT OVER (killed): ${JSON.stringify(stuckProcesses)}`,
);

const uptimeAfter = execFileSync("uptime", { encoding: "utf8" }).trim();
const stamp = new Date().toISOString().replaceAll(":", "-").replace(".", "-");
const out = join(repo, "bench", "results", `debug-peer-${stamp}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      uptimeBefore,
      uptimeAfter,
      node: process.version,
      peer: { package: "@debugmcp/mcp-debugger", version: peerVersion },
      debugpy: debugpyVersion,
      python,
      runs,
      goal: { noMoreOnAny, fewerInTotal, met: goal },
      leftovers: stuckProcesses,
      table: lines,
      tasks: results,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${out}`);
