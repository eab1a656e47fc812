import { defineTool, isToolVisible, whyToolHidden } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { Clock, Counter, bump, launch, peek } from "./__fixtures__/example-plugin.js";
import { MAIN_CALLER, PLAN_CALLER } from "./callers.js";

const both = defineTool({
  name: "both",
  tier: "read",
  description: "Needs two resources.",
  input: v.strictObject({}),
  requires: [Counter, Clock],
  parallelSafe: true,
  run: async () => "ok",
});

describe("whyToolHidden and isToolVisible", () => {
  it("shows a tool within the caller's ceiling whose resources are attached", () => {
    expect(whyToolHidden(bump, MAIN_CALLER, new Set([Counter.id]))).toBeUndefined();
    expect(isToolVisible(bump, MAIN_CALLER, new Set([Counter.id]))).toBe(true);
    expect(isToolVisible(launch, MAIN_CALLER, new Set())).toBe(true);
  });

  it("hides a tool above the caller's ceiling, naming the ceiling, even with its resources attached", () => {
    expect(whyToolHidden(bump, PLAN_CALLER, new Set([Counter.id]))).toEqual({ kind: "tier", ceiling: "read" });
    expect(isToolVisible(bump, PLAN_CALLER, new Set([Counter.id]))).toBe(false);
  });

  it("hides a tool whose resources are not all attached, listing only the missing ones", () => {
    expect(whyToolHidden(both, PLAN_CALLER, new Set([Counter.id]))).toEqual({ kind: "resources", missing: [Clock] });
    expect(whyToolHidden(both, PLAN_CALLER, new Set())).toEqual({ kind: "resources", missing: [Counter, Clock] });
    expect(isToolVisible(peek, PLAN_CALLER, new Set([Clock.id]))).toBe(false);
  });
});
