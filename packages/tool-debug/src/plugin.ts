import { definePlugin, defineResourceProvider, type Plugin } from "@runbound/tool-kit";
import { createDebugSupervisor, DebugSupervisor, type DebugSupervisorSettings } from "./debug-supervisor.js";
import { debugTool } from "./debug-tool.js";
import { PACKAGE_VERSION } from "./version.js";

/** Settings of {@link createDebugPlugin}. */
export interface DebugPluginSettings {
  /** Settings of the default supervisor (its placement, its budgets); `RUNBOUND_DEBUGPY_PYTHON` still applies unless `debugpyPython` is given. */
  supervisor?: DebugSupervisorSettings;
}

/** The plugin with a default supervisor made from `settings` (a host that puts debuggees in a sandbox passes its placement). */
export function createDebugPlugin(settings: DebugPluginSettings = {}): Plugin {
  return definePlugin({
    name: "@runbound/tool-debug",
    version: PACKAGE_VERSION,
    tools: [debugTool],
    resourceProviders: [
      defineResourceProvider({
        key: DebugSupervisor,
        create: () => {
          const debugpyPython = process.env["RUNBOUND_DEBUGPY_PYTHON"];
          const supervisor = createDebugSupervisor({
            ...(debugpyPython === undefined ? {} : { debugpyPython }),
            ...settings.supervisor,
          });
          return { value: supervisor, dispose: () => supervisor.dispose(), describe: () => supervisor.describe() };
        },
      }),
    ],
  });
}

/** The plugin: the debug tool, plus a default supervisor resource (on the host) for generic runners. */
export const debugPlugin = createDebugPlugin();
