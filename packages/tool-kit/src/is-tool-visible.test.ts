import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defineTool } from "./define-tool.js";
import { isToolVisible, whyToolHidden } from "./is-tool-visible.js";
import { defineResource } from "./resource.js";
import { createFakeRun } from "./testing/create-fake-run.js";
import { resultErrorCode } from "./error-result.js";

const Needed = defineResource<string>("test.needed", "A resource the write tool needs.");
const writer = defineTool({
  name: "writer",
  tier: "write",
  description: "Writes with the needed resource.",
  input: v.strictObject({}),
  requires: [Needed],
  parallelSafe: false,
  run: async () => "wrote",
});

describe("the one visibility rule", () => {
  it("hides a tool above the caller's ceiling first, then one missing a resource", () => {
    expect(whyToolHidden(writer, { name: "plan", ceiling: "read" }, new Set())).toEqual({
      kind: "tier",
      ceiling: "read",
    });
    expect(whyToolHidden(writer, { name: "main", ceiling: "exec" }, new Set())).toEqual({
      kind: "resources",
      missing: [Needed],
    });
    expect(isToolVisible(writer, { name: "main", ceiling: "write" }, new Set([Needed.id]))).toBe(true);
  });

  it("is the rule the fake run applies: the caller's ceiling, then the attached resources", async () => {
    const plan = createFakeRun({
      tools: [writer],
      resources: [[Needed, "x"]],
      caller: { name: "plan", ceiling: "read" },
    });
    expect(resultErrorCode(await plan.call("writer", {}))).toBe("unknown_tool");
    const main = createFakeRun({ tools: [writer] });
    expect(resultErrorCode(await main.call("writer", {}))).toBe("unavailable");
    main.attach(Needed, "x");
    expect((await main.call("writer", {})).isError).toBeUndefined();
  });
});
