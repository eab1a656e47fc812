import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { collectTools } from "./collect-tools.js";
import { createRun } from "./create-run.js";
import { exportToolSchemas } from "./schema/export-tool-schemas.js";

function pluginWith(
  input: v.ObjectSchema<v.ObjectEntries, undefined> | v.StrictObjectSchema<v.ObjectEntries, undefined>,
) {
  const tool = defineTool({
    name: "tagger",
    tier: "read",
    description: "Tags things.",
    input: input as v.StrictObjectSchema<v.ObjectEntries, undefined>,
    requires: [],
    parallelSafe: true,
    run: async () => "ok",
  });
  return definePlugin({ name: "tags", version: "1.0.0", tools: [tool] });
}

describe("collectTools: schema profiles at load", () => {
  it("loads a tool only some profiles can express, and keeps each refusal with its reason", async () => {
    const plugin = pluginWith(
      v.strictObject({ tags: v.pipe(v.record(v.string(), v.string()), v.description("Tags.")) }),
    );
    const entry = collectTools([plugin]).get("tagger")!;
    expect([...entry.unexportable.keys()]).toEqual(["openai-strict"]);
    expect(entry.unexportable.get("openai-strict")).toMatchObject({ code: "invalid_plugin" });
    expect(entry.unexportable.get("openai-strict")!.message).toContain("`input.tags` is a `v.record`");

    const run = createRun({ plugins: [plugin] });
    try {
      expect(exportToolSchemas(run.tools, "json")).toHaveLength(1);
      expect(exportToolSchemas(run.tools, "anthropic")).toHaveLength(1);
      expect(() => exportToolSchemas(run.tools, "openai")).toThrow(
        "The input schema of `tagger` cannot be exported in the `openai-strict` profile",
      );
    } finally {
      await run.close();
    }
  });

  it("records no refusal for a tool every profile expresses", () => {
    expect(
      collectTools([pluginWith(v.strictObject({ tag: v.pipe(v.string(), v.description("A tag.")) }))]).get("tagger")!
        .unexportable.size,
    ).toBe(0);
  });

  it("refuses the plugin when even the json profile cannot carry the schema", () => {
    expect(() => collectTools([pluginWith(v.strictObject({ when: v.date() }))])).toThrow(
      "The input schema of `tagger` cannot be exported as JSON Schema",
    );
  });
});
