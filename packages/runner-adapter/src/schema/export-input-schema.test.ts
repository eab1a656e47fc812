import { defineTool } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { examplePlugin } from "../__fixtures__/example-plugin.js";
import { exportInputSchema } from "./export-input-schema.js";
import { SCHEMA_PROFILES } from "./schema-profile.js";
import { schemaProfileViolations } from "./schema-profile-violations.js";

const rich = defineTool({
  name: "rich",
  tier: "read",
  description: "Has every kind of field.",
  input: v.strictObject({
    path: v.pipe(v.string(), v.description("A path.")),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("At most this many."))),
    mode: v.optional(v.pipe(v.picklist(["a", "b"]), v.description("A mode."))),
    options: v.optional(v.pipe(v.array(v.strictObject({ label: v.pipe(v.string(), v.description("Label.")), note: v.optional(v.pipe(v.string(), v.description("Note."))) })), v.description("Options."))),
    context: v.pipe(v.nullable(v.string()), v.description("Nullable, required.")),
  }),
  requires: [],
  parallelSafe: true,
  run: async () => "ok",
});

describe("exportInputSchema", () => {
  it.each(SCHEMA_PROFILES)("meets the %s profile's rules for every example tool", (profile) => {
    for (const tool of [rich, ...examplePlugin.tools]) {
      expect(schemaProfileViolations(exportInputSchema(tool, profile), profile), tool.name).toEqual([]);
    }
  });

  it("widens optional fields to nullable and requires every property in openai-strict, nested objects too", () => {
    const schema = exportInputSchema(rich, "openai-strict");
    expect(schema["required"]).toEqual(["path", "limit", "mode", "options", "context"]);
    const properties = schema["properties"] as Record<string, Record<string, unknown>>;
    expect(properties["limit"]).toEqual({ anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }], description: "At most this many." });
    const item = (properties["options"]!["anyOf"] as Array<Record<string, unknown>>)[0]!["items"] as Record<string, unknown>;
    expect(item["required"]).toEqual(["label", "note"]);
    expect(item["additionalProperties"]).toBe(false);
  });

  it("keeps optional fields optional in the json profile", () => {
    expect(exportInputSchema(rich, "json")["required"]).toEqual(["path", "context"]);
  });

  it("the rule checker catches each broken rule", () => {
    expect(schemaProfileViolations({ anyOf: [] }, "json")).toContain('the root must be {"type":"object"}, got undefined');
    const loose = { type: "object", properties: { a: { type: "string", default: "x" } }, required: [] };
    expect(schemaProfileViolations(loose, "openai-strict")).toEqual([
      "every object needs additionalProperties:false",
      "property `a` must be listed in required",
      "`default` is not permitted",
    ]);
    expect(schemaProfileViolations({ type: "object", $schema: "x" }, "anthropic")).toEqual(["the `$schema` header must be stripped", "the root must list `properties`"]);
  });

  it("refuses, as invalid_plugin, a schema that cannot be exported", () => {
    const broken = defineTool({
      name: "broken",
      tier: "read",
      description: "Has a Date field, which JSON cannot carry.",
      input: v.strictObject({ when: v.pipe(v.date(), v.description("Date.")) }),
      requires: [],
      parallelSafe: true,
      run: async () => "ok",
    });
    expect(() => exportInputSchema(broken, "json")).toThrow("The input schema of `broken` cannot be exported as JSON Schema");
  });
});
