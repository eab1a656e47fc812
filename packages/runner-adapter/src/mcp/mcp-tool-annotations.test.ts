import { defineTool, type AnyTool } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { mcpToolAnnotations, toolTitle } from "./mcp-tool-annotations.js";

function tool(tier: "read" | "write" | "exec", extra: { title?: string; hints?: AnyTool["hints"] } = {}) {
  return defineTool({
    name: "stage_edit",
    tier,
    description: "A tool.",
    input: v.strictObject({}),
    requires: [],
    parallelSafe: true,
    run: async () => "ok",
    ...extra,
  });
}

describe("mcpToolAnnotations", () => {
  it.each([
    ["read", { title: "Stage edit", readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
    ["write", { title: "Stage edit", readOnlyHint: false, destructiveHint: true, openWorldHint: false }],
    ["exec", { title: "Stage edit", readOnlyHint: false, destructiveHint: true, openWorldHint: true }],
  ] as const)("derives a %s tool's hints from its tier, claiming no idempotence", (tier, expected) => {
    expect(mcpToolAnnotations(tool(tier))).toStrictEqual(expected);
  });

  it("lets a tool's own hints override its tier's", () => {
    expect(mcpToolAnnotations(tool("write", { hints: { destructive: false, idempotent: true } }))).toStrictEqual({
      title: "Stage edit",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(mcpToolAnnotations(tool("exec", { hints: { openWorld: false, idempotent: false } }))).toMatchObject({
      openWorldHint: false,
      idempotentHint: false,
      destructiveHint: true,
    });
    expect(mcpToolAnnotations(tool("write", { hints: { openWorld: true } }))).toMatchObject({ openWorldHint: true });
  });

  it("calls a read tool that starts work with effects (readOnly: false) neither read-only nor harmless", () => {
    expect(mcpToolAnnotations(tool("read", { hints: { readOnly: false, openWorld: true } }))).toStrictEqual({
      title: "Stage edit",
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
  });

  it("never calls a read-only tool destructive, whatever it claims", () => {
    expect(mcpToolAnnotations(tool("read", { hints: { destructive: true } }))).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
  });
});

describe("toolTitle", () => {
  it("uses the tool's own title, else its name with spaces and a capital", () => {
    expect(toolTitle(tool("read", { title: "Propose an edit" }))).toBe("Propose an edit");
    expect(toolTitle(tool("read"))).toBe("Stage edit");
  });
});
