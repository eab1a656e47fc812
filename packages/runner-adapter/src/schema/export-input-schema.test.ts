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
    options: v.optional(
      v.pipe(
        v.array(
          v.strictObject({
            label: v.pipe(v.string(), v.description("Label.")),
            note: v.optional(v.pipe(v.string(), v.description("Note."))),
          }),
        ),
        v.description("Options."),
      ),
    ),
    context: v.pipe(v.nullable(v.string()), v.description("Nullable, required.")),
  }),
  requires: [],
  parallelSafe: true,
  run: async () => "ok",
});

describe("exportInputSchema", () => {
  it.each(SCHEMA_PROFILES)("meets the %s profile's rules for every example tool it exports", (profile) => {
    for (const tool of [rich, ...examplePlugin.tools]) {
      if (profile === "openai-strict" && tool.name === "relay") continue;
      expect(schemaProfileViolations(exportInputSchema(tool, profile), profile), tool.name).toEqual([]);
    }
  });

  it("refuses openai-strict for a `v.record` of unknown values, naming the tool, the field, the construct and the way out", () => {
    const relay = examplePlugin.tools.find((tool) => tool.name === "relay")!;
    expect(() => exportInputSchema(relay, "openai-strict")).toThrow(
      "The input schema of `relay` cannot be exported in the `openai-strict` profile without changing what it accepts: `input.input` is a `v.record` (JSON Schema `propertyNames`/`additionalProperties`), which openai-strict cannot express (it needs fixed property names); use an array of {key, value} objects, or export with the `json` profile. `input.input{key}` accepts any value",
    );
    expect(exportInputSchema(relay, "json")["properties"]).toMatchObject({
      input: { type: "object", propertyNames: { type: "string" }, additionalProperties: {} },
    });
  });

  it("widens optional fields to nullable and requires every property in openai-strict, nested objects too", () => {
    const schema = exportInputSchema(rich, "openai-strict");
    expect(schema["required"]).toEqual(["path", "limit", "mode", "options", "context"]);
    const properties = schema["properties"] as Record<string, Record<string, unknown>>;
    expect(properties["limit"]).toEqual({
      anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }],
      description: "At most this many.",
    });
    const item = (properties["options"]!["anyOf"] as Array<Record<string, unknown>>)[0]!["items"] as Record<
      string,
      unknown
    >;
    expect(item["required"]).toEqual(["label", "note"]);
    expect(item["additionalProperties"]).toBe(false);
  });

  it("keeps optional fields optional in the json profile", () => {
    expect(exportInputSchema(rich, "json")["required"]).toEqual(["path", "context"]);
  });

  it("exports a `v.variant` as `anyOf` in every profile, since two options may both accept a value", () => {
    const shapes = defineTool({
      name: "shapes",
      tier: "read",
      description: "Takes a shape.",
      input: v.strictObject({
        shape: v.variant("kind", [
          v.strictObject({ kind: v.literal("circle"), r: v.number() }),
          v.strictObject({ kind: v.literal("square"), side: v.number() }),
        ]),
      }),
      requires: [],
      parallelSafe: true,
      run: async () => "ok",
    });
    for (const profile of SCHEMA_PROFILES) {
      const shape = (exportInputSchema(shapes, profile)["properties"] as Record<string, Record<string, unknown>>)[
        "shape"
      ]!;
      expect(Object.keys(shape), profile).toEqual(["anyOf"]);
    }
    const circle = (
      (exportInputSchema(shapes, "openai-strict")["properties"] as Record<string, Record<string, unknown>>)["shape"]![
        "anyOf"
      ] as Array<Record<string, unknown>>
    )[0];
    expect(circle).toEqual({
      type: "object",
      properties: { kind: { enum: ["circle"] }, r: { type: "number" } },
      required: ["kind", "r"],
      additionalProperties: false,
    });
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
    expect(() => exportInputSchema(broken, "json")).toThrow(
      "The input schema of `broken` cannot be exported as JSON Schema",
    );
  });
});
