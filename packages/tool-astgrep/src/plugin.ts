import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { astEditTool } from "./ast-edit-tool.js";
import { astGrepTool } from "./ast-grep-tool.js";
import {
  AstGrepParser,
  createAstGrepParser,
  type AstGrepParserInstance,
  type AstGrepParserSettings,
} from "./astgrep-parser.js";
import { describeEngine } from "./engine-binding.js";
import { describeLanguageTable } from "./grammar-availability.js";
import { describeParseCache, parseCacheInvalidator } from "./parse-cache-observer.js";
import { resolveTool } from "./resolve-tool.js";
import { PACKAGE_VERSION } from "./version.js";

/** For status views: which grammars loaded here, which are one install away, and why others did not load. */
function describeLanguages(parser: AstGrepParserInstance): string {
  try {
    return describeLanguageTable(parser.languages());
  } catch (error) {
    return `unavailable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Settings of {@link createAstGrepPlugin}. */
export interface AstGrepPluginSettings {
  /** Settings of the parser its default resource provider creates for each run. */
  parser?: AstGrepParserSettings;
}

/** The plugin with settings: its default parser resource is `createAstGrepParser(settings.parser)`. */
export function createAstGrepPlugin(settings: AstGrepPluginSettings = {}) {
  return definePlugin({
    name: "@runbound/tool-astgrep",
    version: PACKAGE_VERSION,
    tools: [astGrepTool, astEditTool, resolveTool],
    observers: [parseCacheInvalidator],
    resourceProviders: [
      defineResourceProvider({
        key: AstGrepParser,
        create: () => {
          const parser = createAstGrepParser(settings.parser);
          return {
            value: parser,
            dispose: () => parser.dispose(),
            describe: () => `${describeLanguages(parser)}; ${describeParseCache(parser)}; ${describeEngine()}`,
          };
        },
      }),
    ],
  });
}

/** The plugin: ast_grep, ast_edit and resolve, plus a default parser resource for generic runners. */
export const astGrepPlugin = createAstGrepPlugin();
