// A plugin whose one tool reports progress before it answers, as a long first-time wait does.
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

const countTo = defineTool({
  name: "count_to",
  tier: "read",
  description: "Counts to n, reporting each step as progress.",
  input: v.strictObject({ n: v.pipe(v.number(), v.description("How far to count.")) }),
  requires: [],
  parallelSafe: true,
  run: async (input, context) => {
    for (let step = 1; step <= input.n; step += 1) context.progress({ message: `counting`, progress: step, total: input.n });
    return `counted to ${input.n}`;
  },
});

// Says what it waits for once, then nothing until it answers: the run's heartbeat must fill the silence.
const quietWait = defineTool({
  name: "quiet_wait",
  tier: "read",
  description: "Waits the given number of seconds after one progress notice.",
  input: v.strictObject({ seconds: v.pipe(v.number(), v.description("How long to wait.")) }),
  requires: [],
  parallelSafe: true,
  timeoutMs: 120_000,
  run: async (input, context) => {
    context.progress({ message: "Waiting for the slow step" });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, input.seconds * 1_000);
      context.signal.addEventListener("abort", () => (clearTimeout(timer), reject(context.signal.reason)), { once: true });
    });
    return `waited ${input.seconds} s`;
  },
});

export default definePlugin({ name: "progress-plugin", version: "1.0.0", tools: [countTo, quietWait] });
