import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type { AnyTool } from "@runbound/tool-kit";

/** A tool's title for people: its own, or its name with spaces for `_` and a capital first letter. */
export function toolTitle(tool: AnyTool): string {
  if (tool.title !== undefined) return tool.title;
  const words = tool.name.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The MCP annotations of a tool: what its tier implies, unless the tool's own hints say otherwise.
 * `destructiveHint` and `idempotentHint` only mean something for a tool that is not read-only (MCP
 * 2025-11-25, ToolAnnotations); `idempotentHint` is sent only when the tool claims it, since MCP's
 * default (false) is the safe reading.
 */
export function mcpToolAnnotations(tool: AnyTool): ToolAnnotations {
  const hints = tool.hints ?? {};
  const readOnly = tool.tier === "read" && hints.readOnly !== false;
  return {
    title: toolTitle(tool),
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && (hints.destructive ?? true),
    ...(hints.idempotent === undefined ? {} : { idempotentHint: hints.idempotent }),
    // A process can reach anything (network, any file); a read or write tool stays inside its workdir and resources.
    openWorldHint: hints.openWorld ?? tool.tier === "exec",
  };
}
