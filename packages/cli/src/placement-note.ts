import type { Placement } from "@runbound/runtime-kit";
import { definePlugin, defineTool, type AnyTool, type Plugin } from "@runbound/tool-kit";

/**
 * `plugin` with a sentence at the end of each of its tools' descriptions saying where the programs
 * they start run: a model choosing between `eval` and a shell, or a user reading `tools/list`, learns
 * that the kernel sees the workdir and not the host (or that it runs on the host, and why).
 */
export function withPlacementNote(plugin: Plugin, programs: string, placement: Placement): Plugin {
  const note = `\n\nWhere it runs: ${programs} run ${placement.describe()}.`;
  return definePlugin({
    name: plugin.name,
    version: plugin.version,
    tools: plugin.tools.map((tool): AnyTool => defineTool({ ...tool, description: `${tool.description}${note}` })),
    observers: plugin.observers,
    resourceProviders: plugin.resourceProviders,
  });
}
