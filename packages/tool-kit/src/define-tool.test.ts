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

  it.each([
    [{ name: "Bad-Name" }, "must match"],
    [{ tier: "admin" }, "tier `admin` is unknown"],
    [{ description: " " }, "description is empty"],
    [{ input: v.object({}) }, "use `v.strictObject"],
    [{ parallelSafe: "yes" }, "`parallelSafe` must be true or false"],
    [{ timeoutMs: -1 }, "`timeoutMs` is `-1`"],
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
    expect((caught as ToolError).message).toContain(message);
  });
});
