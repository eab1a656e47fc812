import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defineTool } from "./define-tool.js";
import { ToolError } from "./tool-error.js";

const base = {
  name: "ok_tool",
  tier: "write",
  description: "Fine.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => "ok",
} as const;

function refusal(override: Record<string, unknown>): ToolError {
  try {
    defineTool({ ...base, ...override } as never);
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("the definition was accepted");
}

describe("defineTool's title, output schema and hints", () => {
  it.each([
    [{ title: "Structural edit" }],
    [{ output: v.object({ total: v.number() }) }],
    [{ output: v.strictObject({ total: v.number() }) }],
    [{ output: v.looseObject({}) }],
    [{ hints: {} }],
    [{ hints: { destructive: false, idempotent: true, openWorld: false } }],
    [{ hints: { destructive: undefined } }],
    [{ hints: { readOnly: false, openWorld: true } }],
  ])("accepts %o", (override) => {
    expect(defineTool({ ...base, ...override } as never)).toMatchObject(override);
  });

  it.each([
    [{ title: "  " }, "`title` is `  `; give a short name for people (for example `Structural search`) or omit it."],
    [{ title: 7 }, "`title` is `7`; give a short name for people (for example `Structural search`) or omit it."],
    [
      { output: v.array(v.number()) },
      "the output schema is `array`; structured results are JSON objects, so use `v.object({...})` or omit `output`.",
    ],
    [
      { output: {} },
      "the output schema is `undefined`; structured results are JSON objects, so use `v.object({...})` or omit `output`.",
    ],
    [{ hints: true }, "`hints` is `true`; give an object such as `{ destructive: false }` or omit it."],
    [{ hints: null }, "`hints` is `null`; give an object such as `{ destructive: false }` or omit it."],
    [{ hints: [false] }, "`hints` is an array; give an object such as `{ destructive: false }` or omit it."],
    [
      { hints: { readOnly: true } },
      "hint `readOnly` is `true`: only the tier makes a tool read-only (`read`); give `false` for a read tool whose calls start work with effects, or leave it out.",
    ],
    [
      { hints: { sideEffects: true } },
      "hint `sideEffects` is unknown; the hints are `readOnly`, `destructive`, `idempotent`, `openWorld`.",
    ],
    [{ hints: { destructive: "no" } }, "hint `destructive` is `no`; give true or false or leave it out."],
  ])("refuses %o", (override, problem) => {
    const error = refusal(override);
    expect(error.code).toBe("invalid_plugin");
    expect(error.message).toBe(`Tool \`ok_tool\` is not valid: ${problem}`);
  });
});
