import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** What an `@ast-grep/lang-*` package exports, e.g. `import python from "@ast-grep/lang-python"`. */
export interface GrammarModule {
  /** The compiled tree-sitter parser (a shared library); a getter in the published packages. */
  readonly libraryPath: string;
  /** File extensions the grammar reads (lowercase, no dot). */
  readonly extensions: readonly string[];
  /** The parser library's entry symbol; napi assumes `tree_sitter_<id>` when it is absent. */
  readonly languageSymbol?: string;
  /** The character napi substitutes for `$` in patterns of this grammar; `$` when absent. */
  readonly expandoChar?: string;
}

/** A grammar module with its parser library path read, or why it could not be used. */
export type LoadedGrammarModule = { module: GrammarModule; libraryPath: string } | { reason: string };

/**
 * Where `@ast-grep/lang-*` packages are looked for, in order: this package's own location (a flat
 * npm install, or pnpm linking the optional peers), then the program's entry script, as given and
 * as its real path (the host's own install, which finds grammars the host depends on even when this
 * package is linked from elsewhere). Not the working directory: it is often a repository under
 * inspection, and a grammar is native code that would run in this process.
 */
export function grammarSearchPaths(): string[] {
  const paths = [fileURLToPath(import.meta.url)];
  const entry = process.argv[1];
  if (entry !== undefined && entry !== "") {
    paths.push(entry);
    try {
      paths.push(realpathSync(entry));
    } catch {
      // An entry script that vanished (or `node -e`) gives no host location to search from.
    }
  }
  return [...new Set(paths)];
}

/** The file a package name resolves to from the first search path that has it, if any does. */
export function resolveGrammarPackage(packageName: string, searchPaths: readonly string[]): string | undefined {
  for (const path of searchPaths) {
    try {
      return createRequire(path).resolve(packageName);
    } catch {
      // Not installed where this path looks; try the next one.
    }
  }
  return undefined;
}

function readLibraryPath(module: GrammarModule): unknown {
  // @ast-grep/setup-lang logs "found prebuild…" with console.debug on every access, which would
  // corrupt a host that speaks a protocol on stdout (MCP stdio).
  const debug = console.debug;
  console.debug = () => {};
  try {
    return module.libraryPath;
  } finally {
    console.debug = debug;
  }
}

/** Check a grammar module's shape and read its parser library path (which locates the prebuild). */
export function readGrammarModule(module: unknown, source: string): LoadedGrammarModule {
  try {
    const candidate = module as GrammarModule | undefined;
    const libraryPath = candidate === undefined || candidate === null ? undefined : readLibraryPath(candidate);
    if (typeof libraryPath !== "string" || !Array.isArray(candidate?.extensions)) {
      return {
        reason: `${source} does not export \`libraryPath\` and \`extensions\` as an @ast-grep/lang-* package does.`,
      };
    }
    return { module: candidate, libraryPath };
  } catch (error) {
    return { reason: `${source} did not load: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Load an installed grammar package from the file it resolved to. */
export function loadGrammarPackage(packageName: string, resolvedPath: string): LoadedGrammarModule {
  let module: unknown;
  try {
    module = createRequire(resolvedPath)(resolvedPath);
  } catch (error) {
    return { reason: `\`${packageName}\` did not load: ${error instanceof Error ? error.message : String(error)}` };
  }
  return readGrammarModule(module, `\`${packageName}\``);
}
