import { defineTool, type AnyTool } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { exportInputSchema } from "./export-input-schema.js";
import type { SchemaProfile } from "./schema-profile.js";

function toolWith(field: v.GenericSchema): AnyTool {
  return defineTool({
    name: "probe",
    tier: "read",
    description: "Takes one field.",
    input: v.strictObject({ field }),
    requires: [],
    parallelSafe: true,
    run: async () => "ok",
  });
}

function exportedField(field: v.GenericSchema, profile: SchemaProfile): unknown {
  return (exportInputSchema(toolWith(field), profile)["properties"] as Record<string, unknown>)["field"];
}

interface TreeNode {
  label: string;
  kids: TreeNode[];
}
const tree: v.GenericSchema<TreeNode> = v.strictObject({ label: v.string(), kids: v.array(v.lazy(() => tree)) });
const treeWithNote: v.GenericSchema = v.strictObject({
  note: v.optional(v.string()),
  kids: v.array(v.lazy(() => treeWithNote)),
});

describe("exportInputSchema per profile", () => {
  it.each<[string, v.GenericSchema, string]>([
    ["v.record", v.record(v.string(), v.string()), "`input.field` is a `v.record`"],
    ["v.objectWithRest", v.objectWithRest({ a: v.string() }, v.number()), "`input.field` is a `v.objectWithRest`"],
    [
      "v.looseObject",
      v.looseObject({ a: v.string() }),
      "`input.field` is a `v.looseObject`, whose unknown keys reach the tool",
    ],
    [
      "v.intersect",
      v.intersect([v.object({ a: v.string() }), v.object({ b: v.string() })]),
      "`input.field` is a `v.intersect`",
    ],
    ["v.minLength on a string", v.pipe(v.string(), v.minLength(1)), "`input.field` bounds a string's length"],
    ["v.maxLength on a string", v.pipe(v.string(), v.maxLength(9)), "`input.field` bounds a string's length"],
    ["v.tuple", v.tuple([v.string(), v.number()]), "`input.field` is a `v.tuple`"],
    ["v.unknown", v.unknown(), "`input.field` accepts any value"],
    ["v.url", v.pipe(v.string(), v.url()), "`input.field` has the string format `uri`"],
    [
      "v.minEntries",
      v.pipe(v.record(v.string(), v.string()), v.minEntries(1)),
      "`input.field` bounds how many entries an object has",
    ],
    [
      "an optional field inside a v.variant option",
      v.variant("kind", [
        v.strictObject({ kind: v.literal("a"), note: v.optional(v.string()) }),
        v.strictObject({ kind: v.literal("b") }),
      ]),
      "`input.field (anyOf option 1).note` is optional inside a `v.variant` option",
    ],
    [
      "an optional field inside a v.union option",
      v.union([v.strictObject({ note: v.optional(v.string()) }), v.string()]),
      "`input.field (anyOf option 1).note` is optional inside a `v.union` option",
    ],
    [
      "an optional field inside a v.lazy schema",
      treeWithNote,
      "`input.field.kids[].note` is optional inside a `v.lazy` schema",
    ],
  ])("refuses %s under openai-strict, and exports it under json and anthropic", (_name, field, fragment) => {
    expect(() => exportInputSchema(toolWith(field), "openai-strict")).toThrow(
      /^The input schema of `probe` cannot be exported in the `openai-strict` profile without changing what it accepts: /,
    );
    expect(() => exportInputSchema(toolWith(field), "openai-strict")).toThrow(fragment);
    expect(exportedField(field, "json")).toEqual(exportedField(field, "anthropic"));
  });

  it.each<[string, v.GenericSchema, unknown]>([
    ["v.regex", v.pipe(v.string(), v.regex(/^a+$/)), { type: "string", pattern: "^a+$" }],
    [
      "number bounds",
      v.pipe(v.number(), v.integer(), v.minValue(1), v.ltValue(10), v.multipleOf(2)),
      { type: "integer", minimum: 1, exclusiveMaximum: 10, multipleOf: 2 },
    ],
    [
      "array lengths",
      v.pipe(v.array(v.boolean()), v.minLength(1), v.maxLength(3)),
      { type: "array", items: { type: "boolean" }, minItems: 1, maxItems: 3 },
    ],
    ["v.literal", v.literal("x"), { enum: ["x"] }],
    ["v.picklist", v.picklist(["a", "b"]), { enum: ["a", "b"], type: "string" }],
    ["v.nullable", v.nullable(v.string()), { anyOf: [{ type: "string" }, { type: "null" }] }],
    ["v.union", v.union([v.string(), v.number()]), { anyOf: [{ type: "string" }, { type: "number" }] }],
    [
      "v.email",
      v.pipe(v.string(), v.email(), v.description("An address.")),
      { type: "string", format: "email", description: "An address." },
    ],
    [
      "v.object (closed: valibot drops unknown keys)",
      v.object({ a: v.string() }),
      { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
    ],
    [
      "optional, nullish and defaulted fields",
      v.strictObject({ o: v.optional(v.number()), n: v.nullish(v.number()), d: v.optional(v.string(), "x") }),
      {
        type: "object",
        properties: {
          o: { anyOf: [{ type: "number" }, { type: "null" }] },
          n: { anyOf: [{ type: "number" }, { type: "null" }] },
          d: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
        required: ["o", "n", "d"],
        additionalProperties: false,
      },
    ],
  ])("converts %s faithfully under openai-strict", (_name, field, expected) => {
    expect(exportedField(field, "openai-strict")).toEqual(expected);
  });

  it("exports a recursive v.lazy schema through $defs in every profile", () => {
    for (const profile of ["json", "anthropic", "openai-strict"] as const) {
      const schema = exportInputSchema(toolWith(tree), profile);
      expect(JSON.stringify(schema), profile).toContain('"$ref":"#/$defs/');
      expect(Object.keys(schema["$defs"] as object), profile).toHaveLength(1);
    }
  });

  it("refuses in every profile what JSON Schema cannot carry at all", () => {
    for (const profile of ["json", "anthropic", "openai-strict"] as const) {
      expect(() => exportInputSchema(toolWith(v.pipe(v.string(), v.regex(/a/i))), profile), profile).toThrow(
        "The input schema of `probe` cannot be exported as JSON Schema: RegExp flags are not supported by JSON Schema.",
      );
    }
  });
});
