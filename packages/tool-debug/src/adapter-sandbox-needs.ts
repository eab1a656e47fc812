import { realpath } from "node:fs/promises";
import { dirname } from "node:path";
import { goSandboxNeeds, pythonReadOnlyPaths, type SandboxNeeds } from "@runbound/runtime-kit";
import type { AdapterDefinition, LocatedAdapter } from "./adapter-table.js";
import { rustFormatterDirectory } from "./rust-formatters.js";
import type { NeedsContext } from "./sandbox-needs.js";

// debugpy: the prefixes of its interpreters (already the binaries: see the adapter's `startedAs`).
async function debugpyNeeds(located: LocatedAdapter): Promise<SandboxNeeds> {
  const interpreters = [located.command, ...(located.debuggeePython === undefined ? [] : [located.debuggeePython])];
  return {
    readOnlyPaths: (await Promise.all(interpreters.map(pythonReadOnlyPaths))).flat(),
    writablePaths: [],
    env: {},
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

/** What `adapter` needs of the host to run in a sandbox, `located` as it is started (see `startedAs`). */
export function sandboxNeeds(
  adapter: AdapterDefinition,
  located: LocatedAdapter,
  context: NeedsContext,
): Promise<SandboxNeeds> {
  switch (adapter.id) {
    case "debugpy":
      return debugpyNeeds(located);
    case "lldb":
      return lldbNeeds(located, context);
    case "delve":
      return goSandboxNeeds(context.root, context.env, "debug-go-build");
    case "dart":
      return sdkNeeds(located);
  }
}
