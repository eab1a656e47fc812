import { toJsonSchema } from "@valibot/to-json-schema";
import { ToolError, type AnyTool } from "@runbound/tool-kit";
import type * as v from "valibot";

/** A JSON Schema whose root is an object, as MCP requires of `outputSchema`. */
export interface ObjectJsonSchema {
  type: "object";
  [keyword: string]: unknown;
}

/**
 * A tool's `output` schema as JSON Schema, converted the way its input schema is (the input type of
 * the valibot schema, refusing what JSON Schema cannot say), so a client validating `structuredContent`
 * accepts exactly what the adapter's own check accepted. Undefined when the tool declares none.
 *
 * @throws ToolError `invalid_plugin` when the schema cannot be expressed.
 */
export function exportOutputSchema(tool: AnyTool): ObjectJsonSchema | undefined {
  if (tool.output === undefined) return undefined;
  let schema: ObjectJsonSchema;
  try {
    schema = toJsonSchema(tool.output as v.GenericSchema, { errorMode: "throw", typeMode: "input", target: "draft-2020-12" }) as ObjectJsonSchema;
  } catch (error) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `The output schema of \`${tool.name}\` cannot be exported as JSON Schema: ${String(error instanceof Error ? error.message : error).replace(/\.$/, "")}. Use plain valibot types in \`output\`, or omit it.`,
      cause: error,
    });
  }
  // MCP reads a schema without `$schema` as 2020-12 (2025-11-25, JSON Schema usage), as the input schemas are sent.
  delete schema["$schema"];
  return schema;
}
