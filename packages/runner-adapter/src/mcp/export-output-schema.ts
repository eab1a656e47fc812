import type { AnyTool } from "@runbound/tool-kit";
import type * as v from "valibot";
import { exportToolSchema } from "../schema/export-input-schema.js";

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
  return exportToolSchema(tool, tool.output as v.GenericSchema, "output", "json") as ObjectJsonSchema;
}
