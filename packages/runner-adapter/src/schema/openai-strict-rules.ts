import { walkSchema, type JsonSchemaNode } from "./json-schema-node.js";

// The subset OpenAI documents for strict function calling (Structured Outputs, "supported schemas"):
// these types and keywords, every object closed with every property required, an object at the root.
const supportedTypes = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const supportedFormats = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
const supportedKeywords = new Set([
  "type",
  "description",
  "title",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "enum",
  "$ref",
  "$defs",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);
// OpenAI's documented ceiling on the properties of one schema, all objects together.
const maxProperties = 5_000;

/** What a keyword outside the subset comes from in valibot, why strict mode cannot take it, and the way out. */
interface Unsupported {
  construct: string;
  reason: string;
  alternative: string;
}

const record: Unsupported = {
  construct: "is a `v.record` (JSON Schema `propertyNames`/`additionalProperties`)",
  reason: "it needs fixed property names",
  alternative: "use an array of {key, value} objects",
};

const unsupportedKeywords: Record<string, Unsupported> = {
  propertyNames: record,
  allOf: {
    construct: "is a `v.intersect` (JSON Schema `allOf`)",
    reason: "strict mode has no `allOf`",
    alternative: "merge the entries of the intersected objects into one `v.strictObject`",
  },
  oneOf: {
    construct: "uses `oneOf`",
    reason: "strict mode has only `anyOf`",
    alternative: "use `v.union` or `v.variant`, which export as `anyOf`",
  },
  minLength: {
    construct: "bounds a string's length (`v.minLength`, `v.maxLength`, `v.length` or `v.nonEmpty`)",
    reason: "strict mode has no string length keywords",
    alternative: "drop the bound from the schema and check it in the tool",
  },
  prefixItems: {
    construct: "is a `v.tuple` (JSON Schema `prefixItems`)",
    reason: "strict mode has no tuples",
    alternative: "use a `v.strictObject` with a named field for each position",
  },
  minProperties: {
    construct: "bounds how many entries an object has (`v.minEntries`/`v.maxEntries`)",
    reason: "strict mode has no entry-count keywords",
    alternative: "drop the bound from the schema and check it in the tool",
  },
  default: {
    construct: "has a `default`",
    reason: "strict mode does not accept `default`",
    alternative: "remove the default, or export through `exportInputSchema`, which drops it",
  },
  const: {
    construct: "uses `const`",
    reason: "strict mode documents `enum` only",
    alternative: "write it as a one-value `enum`",
  },
};
unsupportedKeywords["maxLength"] = unsupportedKeywords["minLength"]!;
unsupportedKeywords["maxProperties"] = unsupportedKeywords["minProperties"]!;

function sentence(path: string, { construct, reason, alternative }: Unsupported): string {
  return `\`${path}\` ${construct}, which openai-strict cannot express (${reason}); ${alternative}, or export with the \`json\` profile.`;
}

function typeViolations(node: JsonSchemaNode, path: string): string[] {
  const type = node["type"];
  if (type === undefined) {
    const constrained = ["anyOf", "oneOf", "allOf", "enum", "const", "$ref"].some((keyword) => keyword in node);
    return constrained
      ? []
      : [
          sentence(path, {
            construct: "accepts any value (`v.any` or `v.unknown`)",
            reason: "every value needs a type",
            alternative: "give it a type, such as `v.string()` or a `v.union` of the types it takes",
          }),
        ];
  }
  const types = Array.isArray(type) ? type : [type];
  return types
    .filter((name) => !supportedTypes.has(String(name)))
    .map((name) =>
      sentence(path, {
        construct: `has the type \`${String(name)}\``,
        reason: "it is not a JSON type strict mode knows",
        alternative: "use string, number, integer, boolean, object, array or null",
      }),
    );
}

function objectViolations(node: JsonSchemaNode, path: string): string[] {
  const violations: string[] = [];
  const additional = node["additionalProperties"];
  const properties = (node["properties"] ?? {}) as Record<string, unknown>;
  // `propertyNames` already names a record; say it once.
  if (typeof additional === "object" && additional !== null && !("propertyNames" in node)) {
    const construct =
      Object.keys(properties).length > 0
        ? "is a `v.objectWithRest` (JSON Schema `additionalProperties` with a schema)"
        : record.construct;
    violations.push(sentence(path, { ...record, construct }));
  } else if (additional === true) {
    violations.push(
      sentence(path, {
        construct: "is a `v.looseObject` (`additionalProperties: true`)",
        reason: "every object must be closed",
        alternative: "use `v.strictObject` or `v.object`",
      }),
    );
  } else if (additional === undefined) {
    violations.push(
      `\`${path}\` is an object without \`additionalProperties: false\`, which openai-strict requires on every object; export through \`exportInputSchema\`, which closes it.`,
    );
  }
  const required = new Set(Array.isArray(node["required"]) ? (node["required"] as unknown[]) : []);
  for (const key of Object.keys(properties)) {
    if (!required.has(key))
      violations.push(
        `\`${path}.${key}\` is not listed in \`required\`, which openai-strict requires of every property; export through \`exportInputSchema\`, which widens an optional field to nullable.`,
      );
  }
  return violations;
}

/** Where `schema` leaves OpenAI's strict subset: one full sentence per problem, naming the path and the way out. */
export function openAiStrictViolations(schema: JsonSchemaNode): string[] {
  const violations: string[] = [];
  let propertyCount = 0;
  walkSchema(schema, (node, path) => {
    violations.push(...typeViolations(node, path));
    for (const keyword of Object.keys(node)) {
      if (supportedKeywords.has(keyword)) continue;
      const known = unsupportedKeywords[keyword];
      // One sentence per construct: `maxLength` next to `minLength` says nothing new.
      const twin = keyword.startsWith("max") ? `min${keyword.slice(3)}` : undefined;
      if (twin !== undefined && twin in node && unsupportedKeywords[twin] === known) continue;
      if (keyword === "$schema" && path === "input") continue;
      violations.push(
        sentence(
          path,
          known ?? {
            construct: `uses \`${keyword}\``,
            reason: "strict mode does not support that keyword",
            alternative: "express it with the supported keywords",
          },
        ),
      );
    }
    const format = node["format"];
    if (format !== undefined && !supportedFormats.has(String(format))) {
      violations.push(
        sentence(path, {
          construct: `has the string format \`${String(format)}\``,
          reason: `strict mode supports only ${[...supportedFormats].join(", ")}`,
          alternative: "use `v.regex` with a pattern instead",
        }),
      );
    }
    if (node["type"] === "object" || "properties" in node) {
      violations.push(...objectViolations(node, path));
      propertyCount += Object.keys((node["properties"] ?? {}) as object).length;
    }
  });
  if (propertyCount > maxProperties)
    violations.push(
      `The schema has ${propertyCount} properties, more than the ${maxProperties} openai-strict accepts; split the tool, or export with the \`json\` profile.`,
    );
  return violations;
}
