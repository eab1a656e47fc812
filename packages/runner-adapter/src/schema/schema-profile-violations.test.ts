import { describe, expect, it } from "vitest";
import { SCHEMA_PROFILES } from "./schema-profile.js";
import { schemaProfileViolations } from "./schema-profile-violations.js";

const strictObject = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false };

describe("schemaProfileViolations", () => {
  it("accepts a strict object schema in every profile", () => {
    for (const profile of SCHEMA_PROFILES) expect(schemaProfileViolations(strictObject, profile), profile).toEqual([]);
  });

  it("requires an object root in every profile, naming what it got", () => {
    for (const profile of SCHEMA_PROFILES) {
      expect(schemaProfileViolations({ ...strictObject, type: "array" }, profile), profile).toEqual(['the root must be {"type":"object"}, got "array"']);
    }
  });

  it.each(["anyOf", "oneOf", "allOf"])("refuses %s at the root in every profile", (combinator) => {
    for (const profile of SCHEMA_PROFILES) {
      expect(schemaProfileViolations({ ...strictObject, [combinator]: [] }, profile), profile).toEqual([`the root must not use ${combinator}`]);
    }
  });

  it("lets the json profile keep `$schema` and skip `properties`, but not the others", () => {
    const withHeader = { ...strictObject, $schema: "http://json-schema.org/draft-07/schema#" };
    expect(schemaProfileViolations(withHeader, "json")).toEqual([]);
    expect(schemaProfileViolations(withHeader, "anthropic")).toEqual(["the `$schema` header must be stripped"]);
    expect(schemaProfileViolations(withHeader, "openai-strict")).toEqual(["the `$schema` header must be stripped"]);
    expect(schemaProfileViolations({ type: "object" }, "json")).toEqual([]);
    expect(schemaProfileViolations({ type: "object" }, "anthropic")).toEqual(["the root must list `properties`"]);
  });

  it("holds every nested object of an openai-strict schema to additionalProperties:false and full `required`, and forbids `default`", () => {
    const nested = {
      ...strictObject,
      properties: {
        a: { type: "object", properties: { b: { type: "string" }, c: { type: "number", default: 1 } }, required: ["b"], additionalProperties: false },
        d: { type: "array", items: { type: "object", properties: {} } },
        e: { properties: { f: { type: "string" } }, required: ["f"] },
      },
      required: ["a", "d", "e"],
    };
    expect(schemaProfileViolations(nested, "openai-strict")).toEqual([
      "property `c` must be listed in required",
      "`default` is not permitted",
      "every object needs additionalProperties:false",
      "every object needs additionalProperties:false",
    ]);
    expect(schemaProfileViolations(nested, "anthropic")).toEqual([]);
    expect(schemaProfileViolations(nested, "json")).toEqual([]);
  });

  it("holds a nested object without `properties` to additionalProperties:false in openai-strict", () => {
    const schema = { ...strictObject, properties: { a: { type: "object" } } };
    expect(schemaProfileViolations(schema, "openai-strict")).toEqual(["every object needs additionalProperties:false"]);
  });

  it("counts a missing `required` list as requiring nothing", () => {
    expect(schemaProfileViolations({ type: "object", properties: { a: { type: "string" } }, additionalProperties: false }, "openai-strict")).toEqual(["property `a` must be listed in required"]);
  });
});
