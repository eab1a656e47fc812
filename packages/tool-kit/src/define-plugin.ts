import { assertValidTool, type AnyTool } from "./define-tool.js";
import type { ResourceProvider } from "./resource.js";
import { SPECIFICATION_VERSION, type SpecificationVersion } from "./specification-version.js";
import { ToolError } from "./tool-error.js";
import type { WriteObserver } from "./write-observer.js";

/** A package's tools, observers and default resource providers. Each tool package's default export. */
export interface Plugin {
  /** Contract version; a host refuses versions it does not know. */
  readonly specificationVersion: SpecificationVersion;
  /** The npm package name, e.g. `@runbound/tool-astgrep`. */
  readonly name: string;
  /** The package version. */
  readonly version: string;
  /** The tools. Names must be unique across every plugin of a run. */
  readonly tools: readonly AnyTool[];
  /** Observers run after writes. */
  readonly observers: readonly WriteObserver[];
  /** Default instances of the resources the tools need, for a generic runner. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly resourceProviders: readonly ResourceProvider<any>[];
}

/** What {@link definePlugin} takes. */
export interface PluginDefinition {
  name: string;
  version: string;
  tools: readonly AnyTool[];
  observers?: readonly WriteObserver[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  resourceProviders?: readonly ResourceProvider<any>[];
}

/** Check a plugin built by any copy of tool-kit; throws `invalid_plugin` naming the problem. */
export function assertValidPlugin(plugin: Plugin): void {
  const label = `Plugin \`${String(plugin?.name)}\``;
  if (plugin?.specificationVersion !== SPECIFICATION_VERSION) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `${label} declares specificationVersion \`${String(plugin?.specificationVersion)}\`, but this host understands \`${SPECIFICATION_VERSION}\`. Install a version of the plugin built against @runbound/tool-kit with \`${SPECIFICATION_VERSION}\`.`,
    });
  }
  if (
    typeof plugin.name !== "string" ||
    plugin.name.length === 0 ||
    typeof plugin.version !== "string" ||
    plugin.version.length === 0
  ) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `${label} needs a non-empty \`name\` and \`version\` (use the package's).`,
    });
  }
  if (!Array.isArray(plugin.tools)) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `${label} has no \`tools\` array; build it with \`definePlugin({ name, version, tools: [...] })\`.`,
    });
  }
  const seen = new Set<string>();
  for (const tool of plugin.tools as readonly AnyTool[]) {
    if (tool.specificationVersion !== SPECIFICATION_VERSION) {
      throw new ToolError({
        code: "invalid_plugin",
        message: `${label}: tool \`${tool.name}\` declares specificationVersion \`${String(tool.specificationVersion)}\`; this host understands \`${SPECIFICATION_VERSION}\`.`,
      });
    }
    assertValidTool(tool);
    if (seen.has(tool.name)) {
      throw new ToolError({
        code: "invalid_plugin",
        message: `${label} defines tool \`${tool.name}\` twice; give each tool its own name.`,
      });
    }
    seen.add(tool.name);
  }
}

/** Declare a plugin. */
export function definePlugin(definition: PluginDefinition): Plugin {
  const plugin: Plugin = Object.freeze({
    specificationVersion: SPECIFICATION_VERSION,
    name: definition.name,
    version: definition.version,
    tools: Object.freeze([...definition.tools]),
    observers: Object.freeze([...(definition.observers ?? [])]),
    resourceProviders: Object.freeze([...(definition.resourceProviders ?? [])]),
  });
  assertValidPlugin(plugin);
  return plugin;
}
