import { walkSchema, type JsonSchemaNode } from "./json-schema-node.js";

function acceptsNull(node: JsonSchemaNode): boolean {
  const type = node["type"];
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (Array.isArray(node["enum"]) && node["enum"].includes(null)) return true;
  return Array.isArray(node["anyOf"]) && (node["anyOf"] as JsonSchemaNode[]).some(acceptsNull);
}

function nullable(node: JsonSchemaNode): JsonSchemaNode {
  if (acceptsNull(node)) return node;
  const { description, ...rest } = node;
  const widened: JsonSchemaNode = { anyOf: [rest, { type: "null" }] };
  if (description !== undefined) widened["description"] = description;
  return widened;
}

/**
 * Rewrite a faithful schema into OpenAI strict's shapes where that keeps its meaning: optional fields
 * become required and nullable (the host reads `null` as absent), objects that drop unknown keys are
 * closed, `const` becomes a one-value `enum`, annotations strict mode refuses are dropped. What has no
 * faithful rewrite (records, tuples, `allOf`, string lengths…) is left for the rules to refuse.
 */
export function toOpenAiStrict(schema: JsonSchemaNode): JsonSchemaNode {
  const copy = structuredClone(schema);
  walkSchema(copy, (node) => {
    delete node["default"];
    delete node["examples"];
    if ("const" in node) {
      node["enum"] = [node["const"]];
      delete node["const"];
    }
    if (node["type"] !== "object") return;
    const properties = (node["properties"] ?? {}) as Record<string, JsonSchemaNode>;
    const required = new Set((node["required"] as string[] | undefined) ?? []);
    const keys = Object.keys(properties);
    for (const key of keys) {
      if (!required.has(key)) properties[key] = nullable(properties[key]!);
    }
    // A record or `v.objectWithRest` keeps its `additionalProperties` schema, so the rules can refuse it.
    if (node["additionalProperties"] !== undefined && !("properties" in node)) return;
    node["properties"] = properties;
    node["required"] = keys;
    node["additionalProperties"] ??= false;
  });
  return copy;
}
