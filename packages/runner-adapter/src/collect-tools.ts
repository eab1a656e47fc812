import { assertValidPlugin, ToolError, type AnyTool, type Plugin } from "@runbound/tool-kit";
import type { SchemaProfile } from "./schema/schema-profile.js";
import { unexportableProfiles } from "./schema/unexportable-profiles.js";

/**
 * Every tool of a run by name, with the plugin that defines it and the schema profiles its input
 * cannot be exported in (each with the reason `exportInputSchema` gives).
 */
export type ToolRegistry = ReadonlyMap<
  string,
  { tool: AnyTool; plugin: string; unexportable: ReadonlyMap<SchemaProfile, ToolError> }
>;

/**
 * Check the plugins and index their tools by name. Two plugins defining one name, or a schema that has
 * no faithful `json` export (which MCP and the AI SDK serve), are refused; a tool only some provider
 * profile cannot express still loads, so a host that never uses that profile is not blocked.
 */
export function collectTools(plugins: readonly Plugin[]): ToolRegistry {
  const tools = new Map<
    string,
    { tool: AnyTool; plugin: string; unexportable: ReadonlyMap<SchemaProfile, ToolError> }
  >();
  for (const plugin of plugins) {
    assertValidPlugin(plugin);
    for (const tool of plugin.tools) {
      const existing = tools.get(tool.name);
      if (existing !== undefined) {
        throw new ToolError({
          code: "invalid_plugin",
          message: `Tool \`${tool.name}\` is defined by both \`${existing.plugin}\` and \`${plugin.name}\`. Load only one of them.`,
        });
      }
      const unexportable = unexportableProfiles(tool);
      // A schema no model can be shown would break every tool list later; refuse the plugin now.
      const json = unexportable.get("json");
      if (json !== undefined) throw json;
      tools.set(tool.name, { tool, plugin: plugin.name, unexportable });
    }
  }
  return tools;
}
