// The JavaScript peer: a plain `node` child evaluating each line's code in its own global scope with
// vm and answering util.inspect of the value, one JSON line per cell, and nothing else (no output
// capture, no top-level await, no watchdog).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const loop = `
const { runInThisContext } = require("node:vm");
const { inspect } = require("node:util");
const lines = require("node:readline").createInterface({ input: process.stdin });
lines.on("line", (line) => process.stdout.write(JSON.stringify(inspect(runInThisContext(JSON.parse(line)))) + "\\n"));
process.stdout.write("ready\\n");
`;

/** Start `node` on the loop; resolves once it printed "ready". */
export async function startRawNode() {
  const child = spawn(process.execPath, ["-e", loop], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  await new Promise((resolve) => waiting.push(resolve));
  return {
    pid: child.pid,
    run(code) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(code)}\n`);
      });
    },
    async stop() {
      child.kill("SIGKILL");
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", resolve)));
    },
  };
}
