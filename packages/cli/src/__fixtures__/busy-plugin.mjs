// Tools that keep a call busy in the ways a client that leaves must not be stuck behind (issue 6 item 6).
import { spawn } from "node:child_process";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

const noInput = v.strictObject({});

// CPU-bound work that yields between chunks (as DESIGN §5 requires) but never looks at its signal.
const spin = defineTool({
  name: "spin",
  tier: "read",
  description: "Spins the CPU in short chunks for a minute, ignoring its abort signal.",
  input: noInput,
  requires: [],
  parallelSafe: true,
  run: async (_input, context) => {
    context.progress({ message: "spinning" });
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const chunkEnd = Date.now() + 20;
      while (Date.now() < chunkEnd);
      await yieldToEventLoop();
    }
    return "spun";
  },
});

const forever = defineTool({
  name: "forever",
  tier: "read",
  description: "Awaits a promise that never settles, ignoring its abort signal.",
  input: noInput,
  requires: [],
  parallelSafe: true,
  run: async (_input, context) => {
    context.progress({ message: "waiting" });
    return new Promise(() => undefined);
  },
});

// A well-behaved tool that owns a child process: it kills the child when its signal aborts.
const child = defineTool({
  name: "child",
  tier: "exec",
  description: "Starts a long-lived child process and kills it when the call is cancelled.",
  input: noInput,
  requires: [],
  parallelSafe: false,
  run: (_input, context) =>
    new Promise((resolve) => {
      const worker = spawn(process.execPath, ["-e", "setInterval(() => undefined, 1000)"], { stdio: "ignore" });
      context.signal.addEventListener("abort", () => worker.kill("SIGKILL"), { once: true });
      worker.once("spawn", () => context.progress({ message: `child ${worker.pid}` }));
      worker.once("exit", () => resolve("child ended"));
    }),
});

export default definePlugin({ name: "busy-plugin", version: "1.0.0", tools: [spin, forever, child] });
