import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { assertValidPlugin, ToolError, type Plugin } from "@runbound/tool-kit";

async function resolveSpecifier(specifier: string, workdir: string): Promise<string> {
  const looksLikePath = specifier.startsWith(".") || isAbsolute(specifier);
  if (looksLikePath) {
    const path = resolve(process.cwd(), specifier);
    if ((await stat(path).catch(() => undefined)) === undefined) {
      throw new ToolError({ code: "not_found", message: `Plugin file \`${specifier}\` does not exist (looked at \`${path}\`). Pass a path to the plugin's built JavaScript entry.` });
    }
    return pathToFileURL(path).href;
  }
  try {
    // A package name resolves from the workdir first (the project's own node_modules), then from the CLI.
    return pathToFileURL(createRequire(resolve(workdir, "package.json")).resolve(specifier)).href;
  } catch {
    return specifier;
  }
}

/**
 * Load a third-party plugin named by `--plugin <package-or-path>`: its default export (or an export
 * named `plugin`) must be a tool-v1 plugin.
 */
export async function loadPlugin(specifier: string, workdir: string): Promise<Plugin> {
  let module: Record<string, unknown>;
  try {
    module = (await import(await resolveSpecifier(specifier, workdir))) as Record<string, unknown>;
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    // The module was found but its own code threw: installing it again will not help.
    if ((error as NodeJS.ErrnoException | undefined)?.code !== "ERR_MODULE_NOT_FOUND") {
      throw new ToolError({
        code: "invalid_plugin",
        message: `Plugin \`${specifier}\` threw while it was imported: ${error instanceof Error ? error.message : String(error)}. This is a bug in the plugin; fix it or report it to its author, and run without this --plugin meanwhile.`,
        cause: error,
      });
    }
    throw new ToolError({
      code: "not_found",
      message: `Plugin \`${specifier}\` could not be loaded: ${error instanceof Error ? error.message : String(error)}. Install it (npm install ${specifier}) or pass a path to its built entry file.`,
      cause: error,
    });
  }
  const plugin = (module["default"] ?? module["plugin"]) as Plugin | undefined;
  if (plugin === undefined || typeof plugin !== "object") {
    throw new ToolError({ code: "invalid_plugin", message: `Plugin \`${specifier}\` has no default export. Export the result of \`definePlugin(...)\` as default.` });
  }
  assertValidPlugin(plugin);
  return plugin;
}
