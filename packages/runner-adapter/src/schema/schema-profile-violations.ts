import type { JsonSchemaNode } from "./json-schema-node.js";
import { openAiStrictViolations } from "./openai-strict-rules.js";
import type { SchemaProfile } from "./schema-profile.js";

// Every consumer (MCP's `inputSchema`, OpenAI `parameters`, Anthropic `input_schema`) takes an object at the root.
function rootViolations(schema: JsonSchemaNode, profile: SchemaProfile): string[] {
  const violations: string[] = [];
  if (schema["type"] !== "object")
    violations.push(
      `The root must be {"type":"object"}, got ${JSON.stringify(schema["type"])}; use \`v.strictObject\` for a tool's input.`,
    );
  for (const combinator of ["anyOf", "oneOf", "allOf"]) {
    if (combinator in schema)
      violations.push(`The root must not use \`${combinator}\`; put the alternatives in a field of the input object.`);
  }
  if (profile !== "json" && "$schema" in schema)
    violations.push(`The \`$schema\` header must be stripped for ${profile}.`);
  if (profile === "anthropic" && typeof schema["properties"] !== "object")
    violations.push("The root must list `properties` for anthropic, even when it has none.");
  return violations;
}

/**
 * The rules a profile's consumers enforce, checked on an exported schema. Empty means the schema is
 * acceptable; each entry is a sentence naming the rule, where it is broken and the way out.
 */
export function schemaProfileViolations(schema: JsonSchemaNode, profile: SchemaProfile): string[] {
  const violations = rootViolations(schema, profile);
  if (profile === "openai-strict") violations.push(...openAiStrictViolations(schema));
  return violations;
}
