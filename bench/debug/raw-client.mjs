// The peer: a raw DAP client driving the adapter directly, in the handshake order VS Code uses, with
// no supervisor, no answer building, no process-table bookkeeping. Only the framing is shared.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { DapConnection } from "../../packages/tool-debug/dist/index.js";

async function connect(adapter, located, cwd) {
  if (adapter.transport === "stdio") {
    const child = spawn(located.command, located.args, { cwd, stdio: ["pipe", "pipe", "ignore"], detached: true });
    return { child, connection: new DapConnection(child.stdout, child.stdin) };
  }
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const args = located.args.map((argument) => argument.replace("{address}", `127.0.0.1:${server.address().port}`));
  const child = spawn(located.command, args, { cwd, stdio: ["ignore", "ignore", "ignore"], detached: true });
  const socket = await new Promise((resolve) => server.once("connection", resolve));
  socket.setNoDelay(true);
  server.close();
  return { child, connection: new DapConnection(socket, socket) };
}

/**
 * Launch to the first breakpoint stop, then time each inspection request and a step. The stop and
 * the step are timed twice: to the `stopped` event, and to the top frame after it (one stackTrace
 * more), which is what the tool's answer holds (where it stopped, with the source line).
 */
export async function rawSession({ adapter, located, program, cwd, file, line, expression, buildOutput, iterations }) {
  const started = performance.now();
  const { child, connection } = await connect(adapter, located, cwd);
  const initialized = connection.waitForEvent((event) => event.event === "initialized", 180_000);
  const stopped = connection.waitForEvent((event) => event.event === "stopped", 180_000);
  const capabilities =
    (
      await connection.request(
        "initialize",
        { adapterID: adapter.dapAdapterId, linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" },
        30_000,
      )
    ).body ?? {};
  const launch = connection.request(
    "launch",
    adapter.launchArguments({ program, args: [], cwd, isDirectory: false, buildOutput }, located),
    180_000,
  );
  launch.catch(() => undefined);
  await initialized;
  await connection.request("setBreakpoints", { source: { path: file }, breakpoints: [{ line }] }, 10_000);
  if (capabilities.supportsConfigurationDoneRequest) await connection.request("configurationDone", {}, 10_000);
  await launch;
  const stop = await stopped;
  const firstStopMs = performance.now() - started;
  const threadId = stop.event.body.threadId;
  // What the tool's answer holds beyond the stop: the top frame (function, file, line).
  await connection.request("stackTrace", { threadId, startFrame: 0, levels: 1 }, 10_000);
  const firstStopWithFrameMs = performance.now() - started;
  const timings = { threads: [], stack: [], scopes: [], variables: [], evaluate: [] };
  for (let index = 0; index < iterations; index++) {
    let at = performance.now();
    await connection.request("threads", {}, 10_000);
    timings.threads.push(performance.now() - at);
    at = performance.now();
    const frames = (await connection.request("stackTrace", { threadId, startFrame: 0, levels: 30 }, 10_000)).body
      .stackFrames;
    timings.stack.push(performance.now() - at);
    at = performance.now();
    const scopes = (await connection.request("scopes", { frameId: frames[0].id }, 10_000)).body.scopes;
    timings.scopes.push(performance.now() - at);
    at = performance.now();
    await connection.request("variables", { variablesReference: scopes[0].variablesReference }, 10_000);
    timings.variables.push(performance.now() - at);
    at = performance.now();
    await connection.request("evaluate", { expression, frameId: frames[0].id, context: "repl" }, 10_000);
    timings.evaluate.push(performance.now() - at);
  }
  const next = connection.waitForEvent((event) => event.event === "stopped", 30_000);
  const stepAt = performance.now();
  await connection.request("next", { threadId }, 10_000);
  await next;
  const stepMs = performance.now() - stepAt;
  await connection.request("stackTrace", { threadId, startFrame: 0, levels: 1 }, 10_000);
  const stepWithFrameMs = performance.now() - stepAt;
  await connection.request("disconnect", { terminateDebuggee: true }, 2_000).catch(() => undefined);
  connection.close();
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // gone
  }
  return { firstStopMs, firstStopWithFrameMs, stepMs, stepWithFrameMs, timings };
}
