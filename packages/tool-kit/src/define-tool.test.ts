import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defineTool } from "./define-tool.js";
import { defineResource } from "./resource.js";
import { ToolError } from "./tool-error.js";

const Counter = defineResource<{ count: number }>("test.counter", "A counter for tests.");

describe("defineTool", () => {
  it("infers the input and the declared resources", async () => {
    const tool = defineTool({
      name: "bump",
      tier: "read",
      description: "Adds to the counter.",
      input: v.strictObject({ by: v.pipe(v.number(), v.description("How much to add.")) }),
      requires: [Counter],
      parallelSafe: true,
      async run(input, context) {
        const counter = context.resource(Counter);
        counter.count += input.by;
        return String(counter.count);
      },
    });
    expect(tool.specificationVersion).toBe("tool-v1");
    expect(Object.isFrozen(tool)).toBe(true);
  });

  const nameRule = "the name must match /^[a-z][a-z0-9_]{0,63}$/ (for example `ast_grep`).";
  it.each([
    [{ name: "a" }],
    [{ name: `a${"b_9".repeat(21)}` }],
    [{ requires: [Counter] }],
    [{ timeoutMs: 1 }],
    [{ timeoutMs: undefined }],
  ])("accepts a definition at the edge of the rules %o", (override) => {
    const tool = defineTool({
      name: "ok_tool",
      tier: "read",
      description: "Fine.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async () => "ok",
      ...override,
    } as never);
    expect(tool).toMatchObject({ ...override, specificationVersion: "tool-v1" });
  });

  it.each([
    [{ name: "Bad-Name" }, `Tool \`Bad-Name\` is not valid: ${nameRule}`],
    [{ name: "ok-tool" }, `Tool \`ok-tool\` is not valid: ${nameRule}`],
    [{ name: "a".repeat(65) }, `Tool \`${"a".repeat(65)}\` is not valid: ${nameRule}`],
    [{ name: 7 }, `Tool \`7\` is not valid: ${nameRule}`],
    [{ name: ["ok_tool"] }, `Tool \`ok_tool\` is not valid: ${nameRule}`],
    [{ tier: "admin" }, "Tool `ok_tool` is not valid: tier `admin` is unknown; use `read`, `write` or `exec`."],
    [{ description: " " }, "Tool `ok_tool` is not valid: the description is empty; tell the model what the tool does."],
    [
      { description: undefined },
      "Tool `ok_tool` is not valid: the description is empty; tell the model what the tool does.",
    ],
    [
      { input: v.object({}) },
      "Tool `ok_tool` is not valid: the input schema is `object`; use `v.strictObject({...})` so unknown fields are rejected.",
    ],
    [
      { input: undefined },
      "Tool `ok_tool` is not valid: the input schema is `undefined`; use `v.strictObject({...})` so unknown fields are rejected.",
    ],
    [
      { requires: "test.counter" },
      "Tool `ok_tool` is not valid: `requires` must be an array of keys made with `defineResource`.",
    ],
    [
      { requires: [Counter, "test.counter"] },
      "Tool `ok_tool` is not valid: `requires` must be an array of keys made with `defineResource`.",
    ],
    [
      { requires: [Counter, null] },
      "Tool `ok_tool` is not valid: `requires` must be an array of keys made with `defineResource`.",
    ],
    [{ parallelSafe: "yes" }, "Tool `ok_tool` is not valid: `parallelSafe` must be true or false."],
    [
      { timeoutMs: -1 },
      "Tool `ok_tool` is not valid: `timeoutMs` is `-1`; give a positive number of milliseconds or omit it.",
    ],
    [
      { timeoutMs: 0 },
      "Tool `ok_tool` is not valid: `timeoutMs` is `0`; give a positive number of milliseconds or omit it.",
    ],
    [
      { timeoutMs: "5000" },
      "Tool `ok_tool` is not valid: `timeoutMs` is `5000`; give a positive number of milliseconds or omit it.",
    ],
    [
      { timeoutMs: Number.NaN },
      "Tool `ok_tool` is not valid: `timeoutMs` is `NaN`; give a positive number of milliseconds or omit it.",
    ],
    [{ run: "not a function" }, "Tool `ok_tool` is not valid: `run` must be a function."],
  ])("refuses a broken definition %o", (override, message) => {
    const definition = {
      name: "ok_tool",
      tier: "read",
      description: "Fine.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async () => "ok",
      ...override,
    };
    let caught: unknown;
    try {
      defineTool(definition as never);
    } catch (error) {
      caught = error;
    }
    expect(ToolError.isInstance(caught)).toBe(true);
    expect((caught as ToolError).code).toBe("invalid_plugin");
    expect((caught as ToolError).message).toBe(message);
  });
});
