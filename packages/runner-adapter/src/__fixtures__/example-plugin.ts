import { defineResource, definePlugin, defineTool, defineWriteObserver, ToolError } from "@runbound/tool-kit";
import * as v from "valibot";

/** A counter resource: tools bump it, observers read it. */
export const Counter = defineResource<{ count: number }>("example.counter", "A counter for tests.");
export const Clock = defineResource<{ now: () => number }>("example.clock", "A clock for tests.");

const noInput = v.strictObject({});

export const peek = defineTool({
  name: "peek",
  tier: "read",
  description: "Reads the counter.",
  input: v.strictObject({ label: v.optional(v.pipe(v.string(), v.description("A label to echo."))) }),
  requires: [Counter],
  parallelSafe: true,
  run: async (input, context) => `${input.label ?? "count"}=${context.resource(Counter).count}`,
});

export const bump = defineTool({
  name: "bump",
  tier: "write",
  description: "Adds to the counter and reports a written file.",
  input: v.strictObject({ by: v.pipe(v.number(), v.description("How much to add.")), file: v.optional(v.pipe(v.string(), v.description("File to report as written."))) }),
  requires: [Counter],
  parallelSafe: true,
  run: async (input, context) => {
    context.resource(Counter).count += input.by;
    if (input.file !== undefined) context.wrote([input.file]);
    return `now ${context.resource(Counter).count}`;
  },
});

export const launch = defineTool({
  name: "launch",
  tier: "exec",
  description: "Pretends to start a process; one at a time.",
  input: v.strictObject({ ms: v.pipe(v.number(), v.description("How long to run.")) }),
  requires: [],
  parallelSafe: false,
  run: async (input, context) => {
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return context.signal.aborted ? "aborted" : "done";
  },
});

export const hang = defineTool({
  name: "hang",
  tier: "read",
  description: "Never finishes unless aborted.",
  input: noInput,
  requires: [],
  parallelSafe: true,
  timeoutMs: 200,
  run: (_input, context) =>
    new Promise((_, reject) => context.signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true })),
});

export const fail = defineTool({
  name: "fail",
  tier: "read",
  description: "Throws what it is told to.",
  input: v.strictObject({ kind: v.pipe(v.picklist(["tool", "bug", "garbage"]), v.description("What to throw.")) }),
  requires: [],
  parallelSafe: true,
  run: async (input) => {
    if (input.kind === "tool") throw new ToolError({ code: "not_found", message: "File `x` does not exist." });
    if (input.kind === "bug") throw new TypeError("cannot read properties of undefined");
    return { content: "not an array" } as never;
  },
});

export const relay = defineTool({
  name: "relay",
  tier: "read",
  description: "Calls another tool through ctx.callTool.",
  input: v.strictObject({ tool: v.pipe(v.string(), v.description("Tool to call.")), input: v.pipe(v.record(v.string(), v.unknown()), v.description("Its input.")) }),
  requires: [],
  parallelSafe: false,
  run: async (input, context) => context.callTool(input.tool, input.input),
});

export const big = defineTool({
  name: "big",
  tier: "read",
  description: "Answers a lot of text.",
  input: v.strictObject({ bytes: v.pipe(v.number(), v.description("How many bytes.")) }),
  requires: [],
  parallelSafe: true,
  run: async (input) => "x".repeat(input.bytes),
});

export const counterObserver = defineWriteObserver({
  name: "counter-observer",
  requires: [Counter],
  observe: async (paths, context) => [{ type: "text", text: `observed ${paths.join(",")} at ${context.resource(Counter).count}` }],
});

export const examplePlugin = definePlugin({
  name: "example",
  version: "1.0.0",
  tools: [peek, bump, launch, hang, fail, relay, big],
  observers: [counterObserver],
});
