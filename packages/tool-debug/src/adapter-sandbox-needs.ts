import { realpath } from "node:fs/promises";
import { dirname } from "node:path";
import { goSandboxNeeds, sandboxedPython } from "@runbound/runtime-kit";
import type { AdapterDefinition, LocatedAdapter } from "./adapter-table.js";
import { withRealInterpreters } from "./real-interpreters.js";
import { rustFormatterDirectory } from "./rust-formatters.js";
import type { NeedsContext, SandboxNeeds } from "./sandbox-needs.js";

// debugpy: the adapter's interpreter and the debuggee's, each as the binary itself with its prefix
// (a pyenv shim is a script needing all of pyenv). A project's own interpreter is only read, never run
// on the host to ask where it is.
async function debugpyNeeds(located: LocatedAdapter, { root }: NeedsContext): Promise<SandboxNeeds> {
  const real = await withRealInterpreters(located, root);
  const prefixes = async (path: string) => (await sandboxedPython(path, { fromProject: true })).readOnlyPaths;
  return {
    readOnlyPaths: [
      ...(await prefixes(real.command)),
      ...(real.debuggeePython === undefined ? [] : await prefixes(real.debuggeePython)),
    ],
    writablePaths: [],
    env: {},
    located: real,
  };
}

// lldb: the Rust toolchain's formatter scripts its init commands load.
async function lldbNeeds(_located: LocatedAdapter, { root, env, cache }: NeedsContext): Promise<SandboxNeeds> {
  const formatters = await rustFormatterDirectory(root, env, cache);
  return { readOnlyPaths: formatters === undefined ? [] : [formatters], writablePaths: [], env: {} };
}

// dart: its SDK (the program is `<sdk>/bin/dart`).
async function sdkNeeds(located: LocatedAdapter): Promise<SandboxNeeds> {
  const program = await realpath(located.command).catch(() => located.command);
  return { readOnlyPaths: [dirname(dirname(program))], writablePaths: [], env: {} };
}

/** What `adapter` needs of the host to run in a sandbox. */
export function sandboxNeeds(
  adapter: AdapterDefinition,
  located: LocatedAdapter,
  context: NeedsContext,
): Promise<SandboxNeeds> {
  switch (adapter.id) {
    case "debugpy":
      return debugpyNeeds(located, context);
    case "lldb":
      return lldbNeeds(located, context);
    case "delve":
      return goSandboxNeeds(context.root, context.env, "debug-go-build");
    case "dart":
      return sdkNeeds(located);
  }
}
