import type { AnyTool } from "@runbound/tool-kit";
import { exportInputSchema } from "./export-input-schema.js";
import type { JsonSchemaNode } from "./json-schema-node.js";

/** Tool list formats for `tools --format` and hosts. */
export type ToolListFormat = "json" | "openai" | "anthropic";

/**
 * Describe tools in a provider's request format:
 * - `json`: `{ name, description, tier, inputSchema }` (faithful JSON Schema).
 * - `openai`: Responses API function tools `{ type: "function", name, description, parameters, strict: true }`.
 * - `anthropic`: Messages API tools `{ name, description, input_schema }`.
 */
export function exportToolSchemas(tools: readonly AnyTool[], format: ToolListFormat): JsonSchemaNode[] {
  return tools.map((tool) => {
    switch (format) {
      case "openai":
        return { type: "function", name: tool.name, description: tool.description, parameters: exportInputSchema(tool, "openai-strict"), strict: true };
      case "anthropic":
        return { name: tool.name, description: tool.description, input_schema: exportInputSchema(tool, "anthropic") };
      case "json":
        return { name: tool.name, description: tool.description, tier: tool.tier, inputSchema: exportInputSchema(tool, "json") };
    }
  });
}
