// A scripted debug adapter for fault injection, run as a real child process over stdio.
// Modes (argv[2]): "dart" behaves as the Dart SDK adapter does (initialized right after the
// initialize response, launch answered only after configurationDone, a breakpoint stop);
// "crash-on-launch" writes a line to stderr and exits with code 3 when the launch request comes;
// "killed-on-launch" is killed by SIGKILL then; "hang" never answers anything; "hang-after-initialize"
// answers initialize, then nothing more;
// "orphan" starts a debuggee in a session of its own (as lldb-server --setsid does), reports it in
// a `process` event and stops at a breakpoint, so a test can SIGKILL this adapter; "orphan-deaf"
// does the same but never answers `disconnect` (an adapter too busy to answer in time).
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import process from "node:process";

const mode = process.argv[2] === "debug_adapter" ? "dart" : process.argv[2];
const orphans = mode === "orphan" || mode === "orphan-deaf";
let seq = 1;
let buffer = Buffer.alloc(0);
let launchRequest;

function send(message) {
  const body = Buffer.from(JSON.stringify({ seq: seq++, ...message }));
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}
const respond = (request, body = {}) =>
  send({ type: "response", request_seq: request.seq, command: request.command, success: true, body });
const event = (name, body = {}) => send({ type: "event", event: name, body });

function handle(request) {
  if (mode === "hang" || (mode === "hang-after-initialize" && request.command !== "initialize")) return;
  switch (request.command) {
    case "initialize":
      respond(request, {
        supportsConfigurationDoneRequest: true,
        exceptionBreakpointFilters: [{ filter: "Unhandled", label: "Uncaught", default: true }],
      });
      if (mode === "dart") event("initialized");
      return;
    case "launch":
      if (mode === "crash-on-launch") {
        process.stderr.write("fake adapter: lost the debuggee's state\n");
        process.exit(3);
      }
      if (mode === "killed-on-launch") process.kill(process.pid, "SIGKILL");
      launchRequest = request;
      if (orphans) {
        const debuggee = spawn("sleep", ["1000"], { detached: true, stdio: "ignore" });
        debuggee.unref();
        event("process", { name: "sleep", systemProcessId: debuggee.pid, startMethod: "launch" });
        respond(request);
        event("initialized");
      }
      // "dart": "Don't start launching until configurationDone".
      return;
    case "setBreakpoints":
      respond(request, {
        breakpoints: request.arguments.breakpoints.map((breakpoint, index) => ({
          id: index + 1,
          verified: true,
          line: breakpoint.line,
        })),
      });
      return;
    case "setExceptionBreakpoints":
      respond(request);
      return;
    case "configurationDone":
      respond(request);
      if (mode === "dart" && launchRequest !== undefined) respond(launchRequest);
      event("stopped", { reason: "breakpoint", threadId: 1, allThreadsStopped: true });
      return;
    case "threads":
      respond(request, { threads: [{ id: 1, name: "main" }] });
      return;
    case "stackTrace":
      respond(request, {
        stackFrames: [
          { id: 1000, name: "main", line: 3, column: 1, source: { path: launchRequest.arguments.program } },
        ],
        totalFrames: 1,
      });
      return;
    case "disconnect":
      if (mode === "orphan-deaf") return;
      respond(request);
      if (mode === "dart") process.exit(0);
      return;
    default:
      send({
        type: "response",
        request_seq: request.seq,
        command: request.command,
        success: false,
        message: `fake adapter: ${request.command} not scripted`,
      });
  }
}

process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    handle(message);
  }
});
