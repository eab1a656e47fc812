import { assertValidPlugin, ToolError, type AnyTool, type Plugin } from "@runbound/tool-kit";
import { exportInputSchema } from "./schema/export-input-schema.js";

/** Every tool of a run by name, with the plugin that defines it. */
export type ToolRegistry = ReadonlyMap<string, { tool: AnyTool; plugin: string }>;

/** Check the plugins and index their tools by name; two plugins defining one name, or a schema no model can be shown, are refused. */
export function collectTools(plugins: readonly Plugin[]): ToolRegistry {
  const tools = new Map<string, { tool: AnyTool; plugin: string }>();
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
      // A schema no model can be shown would break every tool list later; refuse the plugin now.
      exportInputSchema(tool, "json");
      tools.set(tool.name, { tool, plugin: plugin.name });
    }
  }
  return tools;
}
