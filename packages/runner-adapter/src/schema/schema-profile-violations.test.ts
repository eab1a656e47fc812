import { describe, expect, it } from "vitest";
import { SCHEMA_PROFILES } from "./schema-profile.js";
import { schemaProfileViolations } from "./schema-profile-violations.js";

const strictObject = {
  type: "object",
  properties: { a: { type: "string" } },
  required: ["a"],
  additionalProperties: false,
};

function withField(field: Record<string, unknown>): Record<string, unknown> {
  return { ...strictObject, properties: { a: field } };
}

describe("schemaProfileViolations", () => {
  it("accepts a strict object schema in every profile", () => {
    for (const profile of SCHEMA_PROFILES) expect(schemaProfileViolations(strictObject, profile), profile).toEqual([]);
  });

  it("requires an object root in every profile, naming what it got", () => {
    for (const profile of SCHEMA_PROFILES) {
      expect(schemaProfileViolations({ ...strictObject, type: "array" }, profile), profile).toEqual([
        'The root must be {"type":"object"}, got "array"; use `v.strictObject` for a tool\'s input.',
      ]);
    }
  });

  it.each(["anyOf", "oneOf", "allOf"])("refuses %s at the root in every profile", (combinator) => {
    for (const profile of SCHEMA_PROFILES) {
      expect(schemaProfileViolations({ ...strictObject, [combinator]: [] }, profile), profile).toContain(
        `The root must not use \`${combinator}\`; put the alternatives in a field of the input object.`,
      );
    }
  });

  it("lets the json profile keep `$schema` and skip `properties`, but not the others", () => {
    const withHeader = { ...strictObject, $schema: "https://json-schema.org/draft/2020-12/schema" };
    expect(schemaProfileViolations(withHeader, "json")).toEqual([]);
    expect(schemaProfileViolations(withHeader, "anthropic")).toEqual([
      "The `$schema` header must be stripped for anthropic.",
    ]);
    expect(schemaProfileViolations(withHeader, "openai-strict")).toEqual([
      "The `$schema` header must be stripped for openai-strict.",
    ]);
    expect(schemaProfileViolations({ type: "object" }, "json")).toEqual([]);
    expect(schemaProfileViolations({ type: "object" }, "anthropic")).toEqual([
      "The root must list `properties` for anthropic, even when it has none.",
    ]);
  });

  it("holds every nested object of an openai-strict schema to additionalProperties:false and full `required`, and forbids `default`", () => {
    const nested = {
      ...strictObject,
      properties: {
        a: {
          type: "object",
          properties: { b: { type: "string" }, c: { type: "number", default: 1 } },
          required: ["b"],
          additionalProperties: false,
        },
        d: { type: "array", items: { type: "object", properties: {} } },
        e: { type: "object", properties: { f: { type: "string" } }, required: ["f"] },
      },
      required: ["a", "d", "e"],
    };
    expect(schemaProfileViolations(nested, "openai-strict")).toEqual([
      "`input.a.c` is not listed in `required`, which openai-strict requires of every property; export through `exportInputSchema`, which widens an optional field to nullable.",
      "`input.a.c` has a `default`, which openai-strict cannot express (strict mode does not accept `default`); remove the default, or export through `exportInputSchema`, which drops it, or export with the `json` profile.",
      "`input.d[]` is an object without `additionalProperties: false`, which openai-strict requires on every object; export through `exportInputSchema`, which closes it.",
      "`input.e` is an object without `additionalProperties: false`, which openai-strict requires on every object; export through `exportInputSchema`, which closes it.",
    ]);
    expect(schemaProfileViolations(nested, "anthropic")).toEqual([]);
    expect(schemaProfileViolations(nested, "json")).toEqual([]);
  });

  it("counts a missing `required` list as requiring nothing", () => {
    expect(
      schemaProfileViolations(
        { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
        "openai-strict",
      ),
    ).toEqual([
      "`input.a` is not listed in `required`, which openai-strict requires of every property; export through `exportInputSchema`, which widens an optional field to nullable.",
    ]);
  });

  it.each([
    [
      "a record",
      { type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "string" } },
      "`input.a` is a `v.record`",
    ],
    [
      "a record without propertyNames",
      { type: "object", additionalProperties: { type: "string" } },
      "`input.a` is a `v.record`",
    ],
    [
      "an object with a rest schema",
      {
        type: "object",
        properties: { b: { type: "string" } },
        required: ["b"],
        additionalProperties: { type: "number" },
      },
      "`input.a` is a `v.objectWithRest`",
    ],
    [
      "an open object",
      { type: "object", properties: {}, required: [], additionalProperties: true },
      "`input.a` is a `v.looseObject`",
    ],
    ["oneOf", { oneOf: [{ type: "string" }, { type: "number" }] }, "`input.a` uses `oneOf`"],
    [
      "allOf",
      { allOf: [{ type: "string" }, { type: "string" }] },
      "`input.a` is a `v.intersect` (JSON Schema `allOf`)",
    ],
    ["minLength", { type: "string", minLength: 1 }, "`input.a` bounds a string's length"],
    ["maxLength", { type: "string", maxLength: 3 }, "`input.a` bounds a string's length"],
    ["a tuple", { type: "array", prefixItems: [{ type: "string" }], minItems: 1 }, "`input.a` is a `v.tuple`"],
    [
      "an entry count",
      { type: "object", properties: {}, required: [], additionalProperties: false, minProperties: 1 },
      "`input.a` bounds how many entries an object has",
    ],
    ["any value", {}, "`input.a` accepts any value (`v.any` or `v.unknown`)"],
    ["a format outside the subset", { type: "string", format: "uri" }, "`input.a` has the string format `uri`"],
    ["const", { const: "x" }, "`input.a` uses `const`"],
    [
      "an unknown keyword",
      { type: "array", items: { type: "string" }, uniqueItems: true },
      "`input.a` uses `uniqueItems`",
    ],
    ["an unknown type", { type: "bigint" }, "`input.a` has the type `bigint`"],
  ])("refuses %s under openai-strict only, once, with the way out", (_name, field, start) => {
    const violations = schemaProfileViolations(withField(field), "openai-strict");
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(
      new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*, or export with the \`json\` profile\\.$`),
    );
    expect(schemaProfileViolations(withField(field), "json")).toEqual([]);
    expect(schemaProfileViolations(withField(field), "anthropic")).toEqual([]);
  });

  it("accepts the keywords and formats OpenAI's strict subset documents", () => {
    const field = {
      anyOf: [
        { type: "string", pattern: "^a", format: "date-time", description: "d", title: "t" },
        { type: "integer", minimum: 1, maximum: 9, exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 1 },
        { type: "array", items: { enum: ["x", null] }, minItems: 1, maxItems: 2 },
        { $ref: "#/$defs/0" },
        { type: ["boolean", "null"] },
      ],
    };
    expect(schemaProfileViolations({ ...withField(field), $defs: { 0: { type: "number" } } }, "openai-strict")).toEqual(
      [],
    );
  });

  it("refuses more than 5000 properties under openai-strict", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 5_001 }, (_, index) => [`p${index}`, { type: "string" }]),
    );
    const schema = { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
    expect(schemaProfileViolations(schema, "openai-strict")).toEqual([
      "The schema has 5001 properties, more than the 5000 openai-strict accepts; split the tool, or export with the `json` profile.",
    ]);
    const atLimit = {
      ...schema,
      properties: Object.fromEntries(Object.entries(properties).slice(1)),
      required: Object.keys(properties).slice(1),
    };
    expect(schemaProfileViolations(atLimit, "openai-strict")).toEqual([]);
  });
});
