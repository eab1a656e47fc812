import { toJsonSchema } from "@valibot/to-json-schema";
import { ToolError, type AnyTool } from "@runbound/tool-kit";
import type * as v from "valibot";
import { walkSchema, type JsonSchemaNode } from "./json-schema-node.js";
import { openAiStrictValibotViolations } from "./openai-strict-valibot-rules.js";
import type { SchemaProfile } from "./schema-profile.js";
import { schemaProfileViolations } from "./schema-profile-violations.js";
import { toOpenAiStrict } from "./to-openai-strict.js";

/** Which of a tool's schemas is exported, as messages name it. */
export type ToolSchemaRole = "input" | "output";

function faithfulSchema(tool: AnyTool, valibot: v.GenericSchema, role: ToolSchemaRole): JsonSchemaNode {
  let schema: JsonSchemaNode;
  try {
    // `errorMode: "throw"` so a schema that cannot be expressed fails loudly instead of exporting a weaker schema.
    schema = toJsonSchema(valibot, {
      errorMode: "throw",
      typeMode: "input",
      target: "draft-2020-12",
    }) as JsonSchemaNode;
  } catch (error) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `The ${role} schema of \`${tool.name}\` cannot be exported as JSON Schema: ${error instanceof Error ? error.message : String(error)}. Use plain valibot types without transforms or checks.`,
      cause: error,
    });
  }
  delete schema["$schema"];
  walkSchema(schema, (node) => {
    // A `v.variant` accepts a value any of its options accepts; `oneOf` would refuse one two options accept.
    if ("oneOf" in node) {
      node["anyOf"] = node["oneOf"];
      delete node["oneOf"];
    }
  });
  return schema;
}

/**
 * Export a tool's input schema in a profile's dialect (JSON Schema 2020-12, without the `$schema`
 * header). Validation never relies on these: the host always validates with the tool's own valibot
 * schema.
 *
 * @throws ToolError `invalid_plugin` when the profile cannot express the schema faithfully, naming the
 * tool and, for each problem, the field, the construct and the way out.
 */
export function exportInputSchema(tool: AnyTool, profile: SchemaProfile): JsonSchemaNode {
  return exportToolSchema(tool, tool.input as v.GenericSchema, "input", profile);
}

/** {@link exportInputSchema} for any of a tool's schemas (its `output` too), named by `role` in messages. */
export function exportToolSchema(
  tool: AnyTool,
  valibot: v.GenericSchema,
  role: ToolSchemaRole,
  profile: SchemaProfile,
): JsonSchemaNode {
  const faithful = faithfulSchema(tool, valibot, role);
  const schema = profile === "openai-strict" ? toOpenAiStrict(faithful) : faithful;
  const violations = schemaProfileViolations(schema, profile);
  if (profile === "openai-strict") violations.push(...openAiStrictValibotViolations(valibot));
  if (violations.length > 0) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `The ${role} schema of \`${tool.name}\` cannot be exported in the \`${profile}\` profile without changing what it accepts: ${violations.join(" ")}`,
    });
  }
  return schema;
}
