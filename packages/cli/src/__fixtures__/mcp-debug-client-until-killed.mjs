// A raw MCP client for a debug session, run as its own process so a test can SIGKILL it. It starts
// `runbound mcp` with the settings given as JSON in argv[2] ({ command, args, env, cwd, closeStdin,
// continueFirst }), sets a breakpoint at main.c:11, launches `app loop`, and reports each step on
// stdout, one JSON line each: {"event":"server","pid"}, {"event":"launched","text","isError"}, then
// {"event":"continuing"} or {"event":"hung-up"}. With `continueFirst` it sends a `continue` it does not
// wait for; with `closeStdin` it ends the server's stdin when a line arrives on its own stdin and stays
// alive (a client that hangs up); otherwise it waits to be killed. Newline-delimited JSON-RPC, as MCP's
// stdio is, without the SDK: its transport cannot end the server's stdin without killing the server.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const { command, args, env, cwd, closeStdin, continueFirst } = JSON.parse(process.argv[2]);
const report = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const server = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "inherit"] });
report({ event: "server", pid: server.pid });
const pending = new Map();
let id = 0;
createInterface({ input: server.stdout }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id !== undefined && pending.has(message.id)) pending.get(message.id)(message);
});
const request = (method, params) =>
  new Promise((resolve) => {
    pending.set(++id, resolve);
    server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
  });
await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "debug-client-gone", version: "1.0.0" } });
server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
const call = async (input) => (await request("tools/call", { name: "debug", arguments: input })).result;
await call({ op: "breakpoints", file: "main.c", lines: [11] });
const launch = await call({ op: "launch", program: "app", args: ["loop"] });
report({ event: "launched", text: launch.content.map((part) => part.text).join("\n"), isError: launch.isError === true });
if (continueFirst) {
  // The program runs on (it loops), so this call waits for a stop while the client goes.
  void call({ op: "continue" });
  await new Promise((resolve) => setTimeout(resolve, 500));
  report({ event: "continuing" });
}
if (closeStdin) {
  // Once the test has read the process tree, it asks for the hang-up with a line on our stdin.
  createInterface({ input: process.stdin }).once("line", () => {
    server.stdin.end();
    report({ event: "hung-up" });
  });
}
setInterval(() => undefined, 60_000);
