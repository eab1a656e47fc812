import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { evalTool } from "./eval-tool.js";
import { createHostKernelFactory, type HostKernelFactory } from "./host-kernel-factory.js";
import { KernelFactory } from "./kernel.js";
import { PACKAGE_VERSION } from "./version.js";

/** For status views: which kernel each language gets here and why; starts nothing. */
export async function describeKernels(factory: HostKernelFactory, workdir: string): Promise<string> {
  const choices = await factory.describe(workdir);
  return choices.map((choice) => `${choice.language}: ${choice.kind} (${choice.reason})`).join("; ");
}

/** The plugin: eval, plus a default kernel factory (native CPython where one resolves, else Pyodide). */
export const evalPlugin = definePlugin({
  name: "@runbound/tool-eval",
  version: PACKAGE_VERSION,
  tools: [evalTool],
  resourceProviders: [
    defineResourceProvider({
      key: KernelFactory,
      create: ({ workdir }) => {
        const factory = createHostKernelFactory();
        return { value: factory, dispose: () => factory.dispose(), describe: () => describeKernels(factory, workdir) };
      },
    }),
  ],
});
