import type { AnyTool } from "@runbound/tool-kit";
import { exportInputSchema } from "./export-input-schema.js";
import type { JsonSchemaNode } from "./json-schema-node.js";
import { JSON_SCHEMA_DIALECT } from "./schema-profile.js";

/** Tool list formats for `tools --format` and hosts. */
export type ToolListFormat = "json" | "openai" | "anthropic";

/**
 * Describe tools in a provider's request format:
 * - `json`: `{ name, description, tier, inputSchema }` (faithful JSON Schema; its `$schema` names the dialect, 2020-12).
 * - `openai`: Responses API function tools `{ type: "function", name, description, parameters, strict: true }`.
 * - `anthropic`: Messages API tools `{ name, description, input_schema }`.
 *
 * @throws ToolError `invalid_plugin` when a tool's schema cannot be expressed faithfully in the
 * format's profile; the message names the tool, each field, the construct and the way out.
 */
export function exportToolSchemas(tools: readonly AnyTool[], format: ToolListFormat): JsonSchemaNode[] {
  return tools.map((tool) => {
    switch (format) {
      case "openai":
        return {
          type: "function",
          name: tool.name,
          description: tool.description,
          parameters: exportInputSchema(tool, "openai-strict"),
          strict: true,
        };
      case "anthropic":
        return { name: tool.name, description: tool.description, input_schema: exportInputSchema(tool, "anthropic") };
      case "json":
        return {
          name: tool.name,
          description: tool.description,
          tier: tool.tier,
          inputSchema: { $schema: JSON_SCHEMA_DIALECT, ...exportInputSchema(tool, "json") },
        };
    }
  });
}
