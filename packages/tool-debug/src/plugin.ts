import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { createDebugSupervisor, DebugSupervisor } from "./debug-supervisor.js";
import { debugTool } from "./debug-tool.js";
import { PACKAGE_VERSION } from "./version.js";

/** The plugin: the debug tool, plus a default supervisor resource for generic runners. */
export const debugPlugin = definePlugin({
  name: "@runbound/tool-debug",
  version: PACKAGE_VERSION,
  tools: [debugTool],
  resourceProviders: [
    defineResourceProvider({
      key: DebugSupervisor,
      create: () => {
        const supervisor = createDebugSupervisor({
          ...(process.env["RUNBOUND_DEBUGPY_PYTHON"] === undefined
            ? {}
            : { debugpyPython: process.env["RUNBOUND_DEBUGPY_PYTHON"] }),
        });
        return { value: supervisor, dispose: () => supervisor.dispose(), describe: () => supervisor.describe() };
      },
    }),
  ],
});
