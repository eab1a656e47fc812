import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { lspDiagnosticsObserver } from "./diagnostics-observer.js";
import { createLspSupervisor, LspSupervisor, type LspSupervisorSettings } from "./lsp-supervisor.js";
import { lspTool } from "./lsp-tool.js";
import { lspRenameTool } from "./rename-tool.js";
import { statusOp } from "./status-op.js";
import { PACKAGE_VERSION } from "./version.js";

/**
 * A slow host (a loaded CI machine) can give the servers longer to answer after a write, in ms:
 * `RUNBOUND_LSP_WRITE_CEILING_MS`. Anything but a positive whole number is ignored.
 */
function afterWriteFromEnvironment(env: NodeJS.ProcessEnv): { ceilingMs?: number } {
  const value = Number(env["RUNBOUND_LSP_WRITE_CEILING_MS"]);
  return Number.isInteger(value) && value > 0 ? { ceilingMs: value } : {};
}

/** Settings of {@link createLspPlugin}. */
export interface LspPluginSettings {
  /** Settings of the default supervisor each run gets (its `afterWrite` defaults from the environment as below). */
  supervisor?: LspSupervisorSettings;
}

/**
 * The plugin with its default supervisor made from `settings`: a host that knows whether the run
 * trusts its project (`supervisor.projectTrust`) says so here.
 */
export function createLspPlugin(settings: LspPluginSettings = {}) {
  return definePlugin({
    name: "@runbound/tool-lsp",
    version: PACKAGE_VERSION,
    tools: [lspTool, lspRenameTool],
    observers: [lspDiagnosticsObserver],
    resourceProviders: [
      defineResourceProvider({
        key: LspSupervisor,
        // Creating the supervisor starts nothing: servers start on the first query of a file of theirs.
        create: ({ workdir }) => {
          const supervisor = createLspSupervisor({
            ...settings.supervisor,
            afterWrite: { ...afterWriteFromEnvironment(process.env), ...settings.supervisor?.afterWrite },
          });
          return {
            value: supervisor,
            dispose: () => supervisor.dispose(),
            describe: async () => (await statusOp(supervisor, workdir, undefined)).text,
          };
        },
      }),
    ],
  });
}

/** The plugin: the `lsp` and `lsp_rename` tools, the diagnostics-on-write observer, plus a default supervisor for generic runners (one per run and workdir). */
export const lspPlugin = createLspPlugin();
