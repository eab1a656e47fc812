// The two sides of every measurement, each over its own fixture copy and its own server process:
// the `lsp` tool inside a real run (runner-adapter's createRun with tool-lsp's plugin, its default
// supervisor attached for the workdir as the CLI does), and the raw client of the same program with
// the same arguments, initialization options, settings and client capabilities.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { attachDefaultResources, createRun } from "@runbound/runner-adapter";
import { definePlugin, resultText, Workdir } from "@runbound/tool-kit";
import { createLspSupervisor, lspPlugin, LspSupervisor } from "@runbound/tool-lsp";
import { startRawClient } from "./raw-client.mjs";
import { benchWritePlugin } from "./write-plugin.mjs";

// The same tools and supervisor without the write observer, for measuring the write + `diagnostics` path.
const lspWithoutObserver = definePlugin({
  name: lspPlugin.name,
  version: lspPlugin.version,
  tools: lspPlugin.tools,
  resourceProviders: lspPlugin.resourceProviders,
});

/**
 * Open a run over `fixture` like the CLI does; servers start on the first `lsp` call. With `observer`
 * false, tool-lsp's write observers (if the build has any) are left out.
 */
export async function openToolSide(fixture, { observer = false } = {}) {
  const run = createRun({ plugins: [observer ? lspPlugin : lspWithoutObserver, benchWritePlugin] });
  await run.attach(Workdir, { value: fixture.workdir });
  const failures = await attachDefaultResources(run, { workdir: fixture.workdir });
  if (failures.size > 0)
    throw new Error(`The run could not attach ${[...failures.keys()].join(", ")}: ${[...failures.values()].join(" ")}`);
  return {
    /** Call a tool; a failed call throws with the tool's message. */
    async call(name, input) {
      const result = await run.call(name, input);
      const text = resultText(result);
      if (result.isError === true) throw new Error(`\`${name}\` ${JSON.stringify(input)} failed: ${text}`);
      return text;
    },
    serverPid: () => run.resource(LspSupervisor).running()[0]?.pid,
    close: () => run.close(),
  };
}

/**
 * What the raw client needs to start the very server the tool would start for `file`: the program the
 * supervisor resolves, the spec's arguments, initialization options and settings, and the tool's own
 * client capabilities (so the server does the same work for both).
 */
export async function rawLaunch(repo, fixture, file) {
  const supervisor = createLspSupervisor();
  const route = await supervisor.route(fixture.workdir, join(fixture.workdir, file));
  if (route.kind !== "ready")
    throw new Error(`No server for \`${file}\` in the fixture (route ${route.kind}); run npm ci.`);
  const { spec, root, binary, languageId } = route;
  // Not exported by tool-lsp (an internal constant): imported from its build so both sides advertise the same.
  const { CLIENT_CAPABILITIES } = await import(
    pathToFileURL(join(repo, "packages/tool-lsp/dist/client-capabilities.js")).href
  );
  return {
    spec,
    binary,
    args: spec.server.args,
    root,
    workdir: fixture.workdir,
    env: process.env,
    capabilities: CLIENT_CAPABILITIES,
    initializationOptions: (await spec.initializationOptions?.({ root, workdir: fixture.workdir })) ?? {},
    settings: spec.settings,
    languageId,
  };
}

/** Start the raw client from a {@link rawLaunch}. */
export function openRawSide(launch) {
  return startRawClient(launch);
}
