import { walkSchema, type JsonSchemaNode } from "./json-schema-node.js";
import type { SchemaProfile } from "./schema-profile.js";

/**
 * The rules a profile's consumers enforce, checked on an exported schema. Empty means the schema is
 * acceptable; each entry names the rule and where it is broken.
 */
export function schemaProfileViolations(schema: JsonSchemaNode, profile: SchemaProfile): string[] {
  const violations: string[] = [];
  if (schema["type"] !== "object") violations.push(`the root must be {"type":"object"}, got ${JSON.stringify(schema["type"])}`);
  for (const combinator of ["anyOf", "oneOf", "allOf"]) {
    if (combinator in schema) violations.push(`the root must not use ${combinator}`);
  }
  if (profile !== "json" && "$schema" in schema) violations.push("the `$schema` header must be stripped");
  if (profile === "anthropic" && typeof schema["properties"] !== "object") violations.push("the root must list `properties`");
  if (profile === "openai-strict") {
    walkSchema(schema, (node) => {
      if ("default" in node) violations.push("`default` is not permitted");
      const properties = node["properties"] as Record<string, unknown> | undefined;
      if (node["type"] === "object" || properties !== undefined) {
        if (node["additionalProperties"] !== false) violations.push("every object needs additionalProperties:false");
        const required = new Set((node["required"] as string[] | undefined) ?? []);
        for (const key of Object.keys(properties ?? {})) {
          if (!required.has(key)) violations.push(`property \`${key}\` must be listed in required`);
        }
      }
    });
  }
  return violations;
}
