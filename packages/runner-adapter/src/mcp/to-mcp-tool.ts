import type { Tool as McpTool } from "@modelcontextprotocol/server";
import type { AnyTool } from "@runbound/tool-kit";
import { exportInputSchema } from "../schema/export-input-schema.js";
import type { ObjectJsonSchema } from "./export-output-schema.js";
import { mcpToolAnnotations, toolTitle } from "./mcp-tool-annotations.js";

/**
 * A tool as `tools/list` shows it. The title goes both at the top level (MCP 2025-06-18 and later)
 * and in the annotations (where 2025-03-26 clients read it).
 */
export function toMcpTool(tool: AnyTool, outputSchema: ObjectJsonSchema | undefined): McpTool {
  return {
    name: tool.name,
    title: toolTitle(tool),
    description: tool.description,
    inputSchema: exportInputSchema(tool, "json") as ObjectJsonSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    annotations: mcpToolAnnotations(tool),
  };
}
