import { defineTool, parseToolInput, ToolError, type AnyTool } from "@runbound/tool-kit";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { exportInputSchema } from "./export-input-schema.js";
import { SCHEMA_PROFILES, type SchemaProfile } from "./schema-profile.js";

// Values a model writes for an openai-strict schema carry every key (null for "not given") and no
// others; values for the json and anthropic schemas may leave keys out, add unknown ones, or send null.
type Style = "model" | "free";

interface Built {
  schema: v.GenericSchema;
  value: (style: Style) => fc.Arbitrary<unknown>;
}

// Strings come from a small alphabet inside the Basic Multilingual Plane: valibot counts a string's
// length in UTF-16 units and JSON Schema in code points, which differ only beyond it (see the report).
const text = fc.string({ unit: fc.constantFrom("a", "b", "1", " ", "é"), maxLength: 6 });
// Numbers stay small and leave out subnormal doubles: for huge doubles, and for subnormal ones such as
// -5e-324 (its division by 2 underflows to 0), `%` (valibot's multipleOf) and ajv's division disagree
// by rounding, which says nothing about the exported schema.
const smallestNormal = 2 ** -1022;
const number = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.double({ min: -20, max: 20, noNaN: true }).map((value) => (Math.abs(value) < smallestNormal ? 0 : value)),
);
// `{}` is left out of a model's noise: for an object of optional fields it is the one "key left out" a
// model never writes to an openai-strict schema.
const noise = {
  free: fc.constantFrom<unknown>(null, 0, 1.5, "a", true, [], {}),
  model: fc.constantFrom<unknown>(null, 0, 1.5, "a", true, []),
};

function nearly(valid: fc.Arbitrary<unknown>, style: Style = "free"): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: noise[style] });
}

const leaf: fc.Arbitrary<Built> = fc.oneof(
  fc
    .record({
      min: fc.option(fc.integer({ min: 0, max: 3 })),
      max: fc.option(fc.integer({ min: 1, max: 5 })),
      pattern: fc.option(fc.constantFrom("^a", "b$", "^[ab]*$")),
    })
    .map(({ min, max, pattern }) => {
      const actions: v.PipeItem<string, string, v.BaseIssue<unknown>>[] = [];
      if (min !== null) actions.push(v.minLength(min));
      if (max !== null) actions.push(v.maxLength(max));
      if (pattern !== null) actions.push(v.regex(new RegExp(pattern)));
      return {
        schema:
          actions.length === 0
            ? v.string()
            : v.pipe(v.string(), ...(actions as [v.PipeItem<string, string, v.BaseIssue<unknown>>])),
        value: () => nearly(text),
      };
    }),
  fc
    .record({
      integer: fc.boolean(),
      min: fc.option(fc.integer({ min: -10, max: 0 })),
      max: fc.option(fc.integer({ min: 0, max: 10 })),
      gt: fc.option(fc.integer({ min: -12, max: -1 })),
      lt: fc.option(fc.integer({ min: 1, max: 12 })),
      multipleOf: fc.option(fc.integer({ min: 2, max: 4 })),
    })
    .map(({ integer, min, max, gt, lt, multipleOf }) => {
      const actions: v.PipeItem<number, number, v.BaseIssue<unknown>>[] = [];
      if (integer) actions.push(v.integer());
      if (min !== null) actions.push(v.minValue(min));
      if (max !== null) actions.push(v.maxValue(max));
      if (gt !== null) actions.push(v.gtValue(gt));
      if (lt !== null) actions.push(v.ltValue(lt));
      if (multipleOf !== null) actions.push(v.multipleOf(multipleOf));
      return {
        schema:
          actions.length === 0
            ? v.number()
            : v.pipe(v.number(), ...(actions as [v.PipeItem<number, number, v.BaseIssue<unknown>>])),
        value: () => nearly(number),
      };
    }),
  fc.constant<Built>({ schema: v.boolean(), value: () => nearly(fc.boolean()) }),
  fc.constant<Built>({ schema: v.null(), value: () => nearly(fc.constant(null)) }),
  fc
    .constantFrom("x", 3, true)
    .map((literal): Built => ({ schema: v.literal(literal), value: () => nearly(fc.constantFrom(literal, "x", 3)) })),
  fc.constant<Built>({
    schema: v.picklist(["red", "green"]),
    value: () => nearly(fc.constantFrom("red", "green", "blue")),
  }),
);

interface TreeNode {
  label: string;
  kids: TreeNode[];
}
const tree: v.GenericSchema<TreeNode> = v.strictObject({ label: v.string(), kids: v.array(v.lazy(() => tree)) });
// Its noise is the style's too: a free `{}` in a model's value can be taken by a union's other member
// whose fields are all optional, a value no model writes to an openai-strict schema (seed 478107234).
const treeValue = (style: Style) =>
  fc.letrec<{ node: unknown }>((tie) => ({
    node: nearly(
      fc.record({
        label: nearly(text, style),
        kids: fc.oneof({ depthSize: "small" }, fc.constant([]), fc.array(tie("node"), { maxLength: 2 })),
      }),
      style,
    ),
  })).node;

type Mode = "required" | "optional" | "nullable" | "nullish" | "default";

function objectOf(
  fields: ReadonlyArray<[string, Built, Mode]>,
  kind: "strict" | "plain",
  fixed: Record<string, unknown> = {},
): Built {
  const entries: v.ObjectEntries = {};
  for (const [name, built, mode] of fields) {
    entries[name] = {
      required: built.schema,
      optional: v.optional(built.schema),
      nullable: v.nullable(built.schema),
      nullish: v.nullish(built.schema),
      default: v.optional(v.string(), "dflt"),
    }[mode];
  }
  for (const [name, literal] of Object.entries(fixed)) entries[name] = v.literal(literal as string);
  const fieldValue = (built: Built, mode: Mode, style: Style): fc.Arbitrary<unknown> => {
    const own = mode === "default" ? nearly(text) : built.value(style);
    return mode === "required" && style === "model" ? own : fc.oneof(own, fc.constant(null));
  };
  return {
    schema: kind === "strict" ? v.strictObject(entries) : v.object(entries),
    value: (style) => {
      const model: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(
        fields.map(([name, built, mode]) => [name, fieldValue(built, mode, style)]),
      );
      for (const [name, literal] of Object.entries(fixed)) model[name] = fc.constantFrom(literal, "other");
      if (style === "model") return nearly(fc.record(model), style);
      return nearly(
        fc
          .tuple(fc.record(model, { requiredKeys: [] }), fc.boolean())
          .map(([object, extra]) => (extra ? { ...object, zz: 1 } : object)),
      );
    },
  };
}

const fieldNames = fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { maxLength: 3 });
const mode = fc.constantFrom<Mode>("required", "optional", "nullable", "nullish", "default");

function fieldsOf(inner: fc.Arbitrary<Built>): fc.Arbitrary<Array<[string, Built, Mode]>> {
  return fieldNames.chain((names) =>
    fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), inner, mode))),
  ) as fc.Arbitrary<Array<[string, Built, Mode]>>;
}

const built: fc.Arbitrary<Built> = fc.letrec<{ any: Built }>((tie) => {
  const inner = fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("any"));
  return {
    any: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc
        .record({
          item: inner,
          min: fc.option(fc.integer({ min: 0, max: 2 })),
          max: fc.option(fc.integer({ min: 1, max: 3 })),
        })
        .map(({ item, min, max }): Built => {
          const actions: v.PipeItem<unknown[], unknown[], v.BaseIssue<unknown>>[] = [];
          if (min !== null) actions.push(v.minLength(min));
          if (max !== null) actions.push(v.maxLength(max));
          const array = v.array(item.schema);
          return {
            schema:
              actions.length === 0
                ? array
                : v.pipe(array, ...(actions as [v.PipeItem<unknown[], unknown[], v.BaseIssue<unknown>>])),
            value: (style) => nearly(fc.array(item.value(style), { maxLength: 4 })),
          };
        }),
      fc
        .tuple(fieldsOf(inner), fc.constantFrom<"strict" | "plain">("strict", "plain"))
        .map(([fields, kind]) => objectOf(fields, kind)),
      fc.array(inner, { minLength: 2, maxLength: 3 }).map((options): Built => ({
        schema: v.union(options.map((option) => option.schema)),
        value: (style) => fc.oneof(...options.map((option) => option.value(style))),
      })),
      fc.array(fieldsOf(inner), { minLength: 2, maxLength: 3 }).map((optionFields): Built => {
        const options = optionFields.map((fields, index) => objectOf(fields, "strict", { kind: `k${index}` }));
        return {
          schema: v.variant(
            "kind",
            options.map((option) => option.schema) as unknown as [
              v.StrictObjectSchema<{ kind: v.LiteralSchema<string, undefined> }, undefined>,
            ],
          ),
          value: (style) => fc.oneof(...options.map((option) => option.value(style))),
        };
      }),
      fc.tuple(fieldsOf(inner), fieldsOf(inner)).map(([left, right]): Built => {
        const [first, second] = [objectOf(left, "plain"), objectOf(right, "plain")];
        return {
          schema: v.intersect([first.schema, second.schema]),
          value: (style) =>
            fc
              .tuple(first.value(style), second.value(style))
              .map(([a, b]) =>
                typeof a === "object" && typeof b === "object" && a !== null && b !== null ? { ...a, ...b } : a,
              ),
        };
      }),
      inner.map((value): Built => ({
        schema: v.record(v.string(), value.schema),
        value: (style) => nearly(fc.dictionary(fc.constantFrom("k1", "k2", "x"), value.value(style), { maxKeys: 3 })),
      })),
      fc.tuple(fc.array(inner, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([items, strict]): Built => ({
        schema: strict ? v.strictTuple(items.map((item) => item.schema)) : v.tuple(items.map((item) => item.schema)),
        value: (style) =>
          nearly(
            fc
              .tuple(fc.tuple(...items.map((item) => item.value(style))), fc.array(text, { maxLength: 1 }))
              .map(([head, tail]) => [...head, ...tail]),
          ),
      })),
      fc.constant<Built>({ schema: tree, value: treeValue }),
    ),
  };
}).any;

const rootFields = fc
  .uniqueArray(fc.constantFrom("p", "q", "r"), { minLength: 1, maxLength: 3 })
  .chain((names) => fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), built, mode))));

// valibot's object and record schemas take an array as an object (its output is then a plain object);
// JSON Schema's `"type": "object"` does not, so there the exported schema is stricter than the tool.
function arrayTakenAsObject(input: unknown, output: unknown): boolean {
  if (Array.isArray(input)) {
    if (!Array.isArray(output)) return typeof output === "object" && output !== null;
    return input.some((item, index) => arrayTakenAsObject(item, output[index]));
  }
  if (typeof input !== "object" || input === null || typeof output !== "object" || output === null) return false;
  return Object.keys(input).some(
    (key) =>
      Object.hasOwn(output, key) &&
      arrayTakenAsObject((input as Record<string, unknown>)[key], (output as Record<string, unknown>)[key]),
  );
}

// An openai-strict schema forbids undeclared keys on every object, while a plain valibot object takes
// and drops them; a model writing to such a schema never sends one. Inside a union, a value meant for
// another member (a variant with a wrong `kind`) can still be taken by a plain member that drops every
// key, so such values are not in the profile's style.
function keyDropped(input: unknown, output: unknown): boolean {
  if (Array.isArray(input))
    return Array.isArray(output) && input.some((item, index) => keyDropped(item, output[index]));
  if (typeof input !== "object" || input === null || typeof output !== "object" || output === null) return false;
  // A null the host reads as "not given" (an optional field) is left out of its output on purpose.
  const given = input as Record<string, unknown>;
  return Object.keys(given).some(
    (key) =>
      (!Object.hasOwn(output, key) && given[key] !== null) ||
      keyDropped(given[key], (output as Record<string, unknown>)[key]),
  );
}

function hostParse(tool: AnyTool, value: unknown): { success: true; output: unknown } | { success: false } {
  try {
    return { success: true, output: parseToolInput(tool, value) };
  } catch (error) {
    if (error instanceof ToolError) return { success: false };
    throw error;
  }
}

describe("exportInputSchema: every profile's schema agrees with the tool's own validation", () => {
  it("accepts only what the tool accepts, and (for values in the profile's style) everything it accepts", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    const counts = {
      schemas: 0,
      values: 0,
      arraysAsObjects: 0,
      keysDropped: 0,
      accepted: 0,
      rejected: 0,
      exported: { json: 0, "openai-strict": 0, anthropic: 0 } as Record<SchemaProfile, number>,
      refused: { json: 0, "openai-strict": 0, anthropic: 0 } as Record<SchemaProfile, number>,
    };
    fc.assert(
      fc.property(
        rootFields.chain((fields) => {
          const root = objectOf(fields as Array<[string, Built, Mode]>, "strict");
          return fc.tuple(
            fc.constant(root.schema),
            fc.array(root.value("free"), { minLength: 6, maxLength: 6 }),
            fc.array(root.value("model"), { minLength: 6, maxLength: 6 }),
          );
        }),
        ([input, freeValues, modelValues]) => {
          counts.schemas += 1;
          const tool: AnyTool = defineTool({
            name: "probe",
            tier: "read",
            description: "Random input.",
            input: input as v.StrictObjectSchema<v.ObjectEntries, undefined>,
            requires: [],
            parallelSafe: true,
            run: async () => "ok",
          });
          for (const profile of SCHEMA_PROFILES) {
            let schema;
            try {
              schema = exportInputSchema(tool, profile);
            } catch (error) {
              expect(error).toBeInstanceOf(ToolError);
              expect(profile, (error as Error).message).toBe("openai-strict");
              counts.refused[profile] += 1;
              continue;
            }
            counts.exported[profile] += 1;
            const validate = ajv.compile(schema);
            const values = profile === "openai-strict" ? modelValues : freeValues;
            for (const value of values) {
              counts.values += 1;
              const schemaAccepts = validate(value) === true;
              const host = hostParse(tool, value);
              const hostAccepts = host.success;
              if (schemaAccepts) counts.accepted += 1;
              else counts.rejected += 1;
              if (schemaAccepts)
                expect(
                  hostAccepts,
                  `${profile} schema accepts ${JSON.stringify(value)} for ${JSON.stringify(schema)}`,
                ).toBe(true);
              // The host also reads null as "not given" for an optional field; the json schema need not.
              const parsed = profile === "openai-strict" ? host : v.safeParse(input, value);
              if (parsed.success && arrayTakenAsObject(value, parsed.output)) {
                counts.arraysAsObjects += 1;
                continue;
              }
              if (profile === "openai-strict" && parsed.success && keyDropped(value, parsed.output)) {
                counts.keysDropped += 1;
                continue;
              }
              const toolAccepts = parsed.success;
              if (toolAccepts)
                expect(
                  schemaAccepts,
                  `${profile} schema refuses ${JSON.stringify(value)}, which the tool accepts, for ${JSON.stringify(schema)}`,
                ).toBe(true);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
    console.info(`schema property test: ${JSON.stringify(counts)}`);
    // The test means something only if both sides of each profile were exercised.
    expect(counts.accepted).toBeGreaterThan(100);
    expect(counts.rejected).toBeGreaterThan(100);
    for (const profile of SCHEMA_PROFILES) expect(counts.exported[profile], profile).toBeGreaterThan(20);
    expect(counts.refused["openai-strict"]).toBeGreaterThan(20);
  }, 60_000);
});
