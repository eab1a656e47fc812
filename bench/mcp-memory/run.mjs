// Memory of `runbound mcp` under load: many read/ast_grep calls over one connection, through the
// official MCP client, sampling the server's RSS (/proc/<pid>/status) and, after a full collection,
// its V8 heap (a probe plugin). Linux only (reads /proc).
// Usage (from the repo root): npm run build && node bench/mcp-memory/run.mjs [--calls 1000] [--mode mixed|read|grep] [--arena-max N]
// --arena-max sets MALLOC_ARENA_MAX for the server: with 1 or 2, native memory the parser's worker
// threads freed is reused instead of kept in one glibc arena per thread.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const calls = Number(option("calls", "1000"));
const mode = option("mode", "mixed");
const arenaMax = option("arena-max", undefined);
const workdir = join(repo, "packages");

const sources = [];
const collect = (directory) => {
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (entry === "node_modules" || entry === "dist") continue;
    if (statSync(path).isDirectory()) collect(path);
    else if (path.endsWith(".ts")) sources.push(relative(workdir, path));
  }
};
collect(workdir);

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    "--expose-gc",
    join(repo, "packages/cli/bin/runbound.js"),
    "mcp",
    "--plugin",
    join(here, "memory-plugin.mjs"),
    "--workdir",
    workdir,
  ],
  env: { ...process.env, ...(arenaMax === undefined ? {} : { MALLOC_ARENA_MAX: arenaMax }) },
  stderr: "inherit",
});
const client = new Client({ name: "runbound-bench-memory", version: "1.0.0" });
await client.connect(transport);
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${transport.pid}/status`, "utf8"))[1]) / 1024;
const patterns = [
  "console.log($$$A)",
  "export function $F($$$P) { $$$B }",
  "await $X",
  "new ToolError($$$A)",
  "$A.$B($$$C)",
];
const megabytes = (bytes) => (bytes / 1048576).toFixed(0);

async function sample(done) {
  const before = rssMb();
  const usage = JSON.parse((await client.callTool({ name: "memory", arguments: {} })).content[0].text);
  console.log(
    [done, before.toFixed(0), megabytes(usage.heapUsed), megabytes(usage.heapTotal), megabytes(usage.external)]
      .map(String)
      .map((cell) => cell.padStart(8))
      .join(" "),
  );
}

console.log(
  `${calls} calls (${mode}) over one connection, ${sources.length} sources under ${workdir}${arenaMax === undefined ? "" : `, MALLOC_ARENA_MAX=${arenaMax}`}`,
);
console.log(["calls", "rss MB", "heap MB", "heapTot", "extern"].map((cell) => cell.padStart(8)).join(" "));
await sample(0);
const started = performance.now();
for (let done = 1; done <= calls; done++) {
  const read = mode === "read" || (mode === "mixed" && done % 2 === 0);
  if (read) await client.callTool({ name: "read", arguments: { path: sources[done % sources.length] } });
  else await client.callTool({ name: "ast_grep", arguments: { pattern: patterns[done % patterns.length] } });
  if (done % Math.max(1, Math.floor(calls / 10)) === 0) await sample(done);
}
console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
await client.close();
