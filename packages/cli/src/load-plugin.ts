import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { assertValidPlugin, ToolError, type Plugin } from "@runbound/tool-kit";
import { resolveAsImport } from "./resolve-as-import.js";

/** An error's message as a sentence of ours: Node's own often lack the full stop. */
function asSentence(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).trim();
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

/**
 * A plugin given as its package's directory (`--plugin .` while developing it): imported through the
 * package's own `exports`, as `import "<its name>"` from inside the package would, so the entry a
 * consumer gets is the one tried.
 */
async function resolvePackageDirectory(specifier: string, directory: string): Promise<string> {
  const manifestPath = join(directory, "package.json");
  const manifest = await readFile(manifestPath, "utf8").then(
    (text) => JSON.parse(text) as { name?: unknown },
    () => undefined,
  );
  if (typeof manifest?.name !== "string") {
    throw new ToolError({
      code: "invalid_plugin",
      message: `Plugin \`${specifier}\` is a directory without a package.json naming its package (looked at \`${manifestPath}\`). Pass the plugin's built entry file (e.g. ${specifier}/dist/index.js) or the directory of its package.`,
    });
  }
  try {
    return await resolveAsImport(manifest.name, pathToFileURL(manifestPath).href);
  } catch (error) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `Plugin \`${specifier}\` (package \`${manifest.name}\`) cannot be imported from its own directory: ${asSentence(error)} Give its package.json an \`exports\` entry with an \`import\` or \`default\` condition, and build it first.`,
      cause: error,
    });
  }
}

async function resolveSpecifier(specifier: string, workdir: string): Promise<string> {
  const looksLikePath = specifier.startsWith(".") || isAbsolute(specifier);
  if (looksLikePath) {
    // Like every path typed on a command line (and like --workdir itself): from the current directory.
    const path = resolve(process.cwd(), specifier);
    const stats = await stat(path).catch(() => undefined);
    if (stats === undefined) {
      throw new ToolError({
        code: "not_found",
        message: `Plugin file \`${specifier}\` does not exist (looked at \`${path}\`). Pass a path to the plugin's built JavaScript entry, relative to the current directory.`,
      });
    }
    return stats.isDirectory() ? resolvePackageDirectory(specifier, path) : pathToFileURL(path).href;
  }
  try {
    // A package name resolves from the workdir first (the project's own node_modules), as an import there would.
    return await resolveAsImport(specifier, pathToFileURL(join(workdir, "package.json")).href);
  } catch (error) {
    // Not in the project: then from where runbound is installed (a global install next to its plugins).
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") return specifier;
    // Found, but its package.json does not let `import` reach it (no `import` or `default` export).
    throw new ToolError({
      code: "invalid_plugin",
      message: `Plugin \`${specifier}\` is installed for the workdir \`${workdir}\` but cannot be imported: ${asSentence(error)} Give its package.json an \`exports\` entry with an \`import\` or \`default\` condition.`,
      cause: error,
    });
  }
}

/**
 * Load a third-party plugin named by `--plugin <package-or-path>`: its default export (or an export
 * named `plugin`) must be a tool-v1 plugin.
 */
export async function loadPlugin(specifier: string, workdir: string): Promise<Plugin> {
  const url = await resolveSpecifier(specifier, workdir);
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    // The module was found but its own code threw: installing it again will not help.
    if ((error as NodeJS.ErrnoException | undefined)?.code !== "ERR_MODULE_NOT_FOUND") {
      throw new ToolError({
        code: "invalid_plugin",
        message: `Plugin \`${specifier}\` threw while it was imported: ${asSentence(error)} This is a bug in the plugin; fix it or report it to its author, and run without this --plugin meanwhile.`,
        cause: error,
      });
    }
    throw new ToolError({
      code: "not_found",
      message: `Plugin \`${specifier}\` could not be loaded: ${asSentence(error)} Install it in the workdir's project (npm install ${specifier}) or pass a path to its built entry file.`,
      cause: error,
    });
  }
  const plugin = (module["default"] ?? module["plugin"]) as Plugin | undefined;
  if (plugin === undefined || typeof plugin !== "object") {
    throw new ToolError({
      code: "invalid_plugin",
      message: `Plugin \`${specifier}\` has no default export. Export the result of \`definePlugin(...)\` as default.`,
    });
  }
  assertValidPlugin(plugin);
  return plugin;
}
