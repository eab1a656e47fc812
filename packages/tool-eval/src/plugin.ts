import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { createEvalTool, type EvalSettings } from "./eval-tool.js";
import {
  createHostKernelFactory,
  type HostKernelFactory,
  type HostKernelFactorySettings,
} from "./host-kernel-factory.js";
import { KernelFactory } from "./kernel.js";
import { PACKAGE_VERSION } from "./version.js";

/** For status views: which kernel each language gets here and why; starts nothing. */
export async function describeKernels(factory: HostKernelFactory, workdir: string): Promise<string> {
  const choices = await factory.describe(workdir);
  return choices.map((choice) => `${choice.language}: ${choice.kind} (${choice.reason})`).join("; ");
}

/** Settings of {@link createEvalPlugin}. */
export interface EvalPluginSettings {
  /** The eval tool's budgets and bounds. */
  tool?: EvalSettings;
  /** The default kernel factory's choices (e.g. `{ python: "pyodide" }`). */
  factory?: HostKernelFactorySettings;
}

/**
 * The plugin with its settings: eval, plus a default kernel factory per run (native CPython where
 * one resolves, else Pyodide; JavaScript in a child Node), whose kernels die with the run.
 */
export function createEvalPlugin(settings: EvalPluginSettings = {}) {
  return definePlugin({
    name: "@runbound/tool-eval",
    version: PACKAGE_VERSION,
    tools: [createEvalTool(settings.tool)],
    resourceProviders: [
      defineResourceProvider({
        key: KernelFactory,
        create: ({ workdir }) => {
          const factory = createHostKernelFactory(settings.factory);
          return {
            value: factory,
            dispose: () => factory.dispose(),
            describe: () => describeKernels(factory, workdir),
          };
        },
      }),
    ],
  });
}

/** The plugin with the defaults. */
export const evalPlugin = createEvalPlugin();
