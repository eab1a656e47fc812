import { toJsonSchema } from "@valibot/to-json-schema";
import { ToolError, type AnyTool } from "@runbound/tool-kit";
import type * as v from "valibot";
import { walkSchema, type JsonSchemaNode } from "./json-schema-node.js";
import type { SchemaProfile } from "./schema-profile.js";

function faithfulSchema(tool: AnyTool): JsonSchemaNode {
  let schema: JsonSchemaNode;
  try {
    // `errorMode: "throw"` so an input schema that cannot be expressed fails loudly instead of exporting a weaker schema.
    schema = toJsonSchema(tool.input as v.GenericSchema, { errorMode: "throw", typeMode: "input" }) as JsonSchemaNode;
  } catch (error) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `The input schema of \`${tool.name}\` cannot be exported as JSON Schema: ${error instanceof Error ? error.message : String(error)}. Use plain valibot types without transforms or checks.`,
      cause: error,
    });
  }
  delete schema["$schema"];
  return schema;
}

function nullable(node: JsonSchemaNode): JsonSchemaNode {
  const { description, ...rest } = node;
  const widened: JsonSchemaNode = { anyOf: [rest, { type: "null" }] };
  if (description !== undefined) widened["description"] = description;
  return widened;
}

function toOpenAiStrict(schema: JsonSchemaNode): JsonSchemaNode {
  const copy = structuredClone(schema);
  walkSchema(copy, (node) => {
    delete node["default"];
    const properties = node["properties"] as Record<string, JsonSchemaNode> | undefined;
    if (node["type"] !== "object" && properties === undefined) return;
    const required = new Set((node["required"] as string[] | undefined) ?? []);
    const keys = Object.keys(properties ?? {});
    for (const key of keys) {
      if (!required.has(key)) properties![key] = nullable(properties![key]!);
    }
    node["required"] = keys;
    node["additionalProperties"] = false;
  });
  return copy;
}

/**
 * Export a tool's input schema in a profile's dialect. Validation never relies on these: the host
 * always validates with the tool's own valibot schema.
 */
export function exportInputSchema(tool: AnyTool, profile: SchemaProfile): JsonSchemaNode {
  const schema = faithfulSchema(tool);
  return profile === "openai-strict" ? toOpenAiStrict(schema) : schema;
}
