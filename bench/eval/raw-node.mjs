// The JavaScript peer: a plain `node` child evaluating each line's code in its own global scope with
// vm and answering util.inspect of the value, one JSON line per cell, and nothing else (no output
// capture, no top-level await, no watchdog).
import { spawn } from "node:child_process";
import { driveLineChild } from "./line-child.mjs";

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
  return driveLineChild(child);
}
