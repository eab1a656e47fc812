import { ToolError, type AnyTool } from "@runbound/tool-kit";
import { exportInputSchema } from "../schema/export-input-schema.js";

/** A JSON Schema whose root is an object, as MCP requires of `outputSchema`. */
export interface ObjectJsonSchema {
  type: "object";
  [keyword: string]: unknown;
}

/**
 * A tool's `output` schema as JSON Schema, through the very converter and `json` profile checks its
 * input schema goes through (JSON Schema 2020-12, the input type of the valibot schema, refusing what
 * cannot be said faithfully), so a client validating `structuredContent` accepts exactly what the
 * adapter's own check accepted. Undefined when the tool declares none.
 *
 * @throws ToolError `invalid_plugin` when the schema cannot be expressed.
 */
export function exportOutputSchema(tool: AnyTool): ObjectJsonSchema | undefined {
  if (tool.output === undefined) return undefined;
  try {
    return exportInputSchema({ ...tool, input: tool.output }, "json") as ObjectJsonSchema;
  } catch (error) {
    // The converter speaks of the schema it was handed as the input schema; here it is the output one.
    if (!ToolError.isInstance(error)) throw error;
    throw new ToolError({ code: error.code, message: error.message.replace(/^The input schema of/, "The output schema of"), cause: error });
  }
}
