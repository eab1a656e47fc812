import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { astEditTool } from "./ast-edit-tool.js";
import { astGrepTool } from "./ast-grep-tool.js";
import { AstGrepParser, createAstGrepParser, type AstGrepParserInstance } from "./astgrep-parser.js";
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

/** The plugin: ast_grep, ast_edit and resolve, plus a default parser resource for generic runners. */
export const astGrepPlugin = definePlugin({
  name: "@runbound/tool-astgrep",
  version: PACKAGE_VERSION,
  tools: [astGrepTool, astEditTool, resolveTool],
  observers: [parseCacheInvalidator],
  resourceProviders: [
    defineResourceProvider({
      key: AstGrepParser,
      create: () => {
        const parser = createAstGrepParser();
        return { value: parser, dispose: () => parser.dispose(), describe: () => `${describeLanguages(parser)}; ${describeParseCache(parser)}` };
      },
    }),
  ],
});
