import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { echoTool, invalidInputMessage } from "./__fixtures__/input-test-tools.js";
import { dropNullOptionals } from "./drop-null-optionals.js";
import { parseToolInput } from "./parse-tool-input.js";

const search = echoTool(
  "search",
  v.strictObject({
    query: v.string(),
    limit: v.optional(v.number()),
    exactLimit: v.exactOptional(v.number()),
    // Fields whose own schema accepts null keep it: null is a value there, not "not given".
    cursor: v.optional(v.nullable(v.string())),
    after: v.optional(v.nullish(v.string())),
    before: v.optional(v.null()),
    nested: v.optional(v.optional(v.nullable(v.string()))),
    scope: v.optional(v.strictObject({ depth: v.optional(v.number()) })),
    filters: v.optional(v.array(v.strictObject({ field: v.string(), value: v.optional(v.string()) }))),
    range: v.strictObject({ from: v.optional(v.number()) }),
    window: v.optional(v.nullable(v.strictObject({ size: v.optional(v.number()) }))),
    marks: v.optional(v.nullable(v.array(v.strictObject({ at: v.optional(v.number()) })))),
  }),
);
const invalidMessage = (raw: unknown): string => invalidInputMessage(search, raw);

describe("null for an optional field", () => {
  it("counts as absent for optional and exact-optional fields", () => {
    expect(parseToolInput(search, { query: "q", limit: null, exactLimit: null, range: {} })).toStrictEqual({
      query: "q",
      range: {},
    });
  });

  it.each(["cursor", "after", "before", "nested"])("stays null in `%s`, whose schema accepts null", (field) => {
    expect(parseToolInput(search, { query: "q", [field]: null, range: {} })).toStrictEqual({
      query: "q",
      [field]: null,
      range: {},
    });
  });

  it("counts as absent inside a nested object and inside every item of an array", () => {
    expect(
      parseToolInput(search, {
        query: "q",
        scope: { depth: null },
        filters: [
          { field: "a", value: null },
          { field: "b", value: "x" },
        ],
        range: { from: null },
      }),
    ).toStrictEqual({
      query: "q",
      scope: {},
      filters: [{ field: "a" }, { field: "b", value: "x" }],
      range: {},
    });
  });

  it("counts as absent below an object or array that may itself be null", () => {
    expect(
      parseToolInput(search, { query: "q", range: {}, window: { size: null }, marks: [{ at: null }] }),
    ).toStrictEqual({ query: "q", range: {}, window: {}, marks: [{}] });
    expect(parseToolInput(search, { query: "q", range: {}, window: null, marks: null })).toStrictEqual({
      query: "q",
      range: {},
      window: null,
      marks: null,
    });
  });

  it("is still refused for a required field, nested objects included", () => {
    expect(invalidMessage({ query: ["q"], range: {} })).toBe(
      "Invalid input for `search`: Field `query` must be string, but got Array. Fix the input and call again.",
    );
    expect(invalidMessage({ query: null, range: {} })).toBe(
      "Invalid input for `search`: Field `query` must be string, but got null. Fix the input and call again.",
    );
    expect(invalidMessage({ query: "q", range: null })).toBe(
      "Invalid input for `search`: Field `range` must be Object, but got null. Fix the input and call again.",
    );
    expect(invalidMessage({ query: "q", range: "all" })).toBe(
      'Invalid input for `search`: Field `range` must be Object, but got "all". Fix the input and call again.',
    );
    expect(invalidMessage({ query: "q", range: {}, filters: [null] })).toBe(
      "Invalid input for `search`: Field `filters.0` must be Object, but got null. Fix the input and call again.",
    );
  });

  it("leaves an undeclared field for validation to name", () => {
    expect(invalidMessage({ query: "q", range: {}, colour: null })).toBe(
      "Invalid input for `search`: Field `colour` is not accepted by `search`; its fields are `query`, `limit`, `exactLimit`, `cursor`, `after`, `before`, `nested`, `scope`, `filters`, `range`, `window`, `marks`. Fix the input and call again.",
    );
  });

  it("copies an own `__proto__` key as a field, never as the copy's prototype", () => {
    const copy = dropNullOptionals(
      search.input,
      JSON.parse('{"__proto__": {"query": "q"}, "range": {"__proto__": {"from": 1}}}'),
    ) as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(copy["range"])).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "range"]);
    expect(copy["query"]).toBeUndefined();
    expect(copy["range"]?.["from"]).toBeUndefined();
  });
});
