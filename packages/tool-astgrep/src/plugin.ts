import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { astEditTool } from "./ast-edit-tool.js";
import { astGrepTool } from "./ast-grep-tool.js";
import { AstGrepParser, createAstGrepParser, type AstGrepParserInstance } from "./astgrep-parser.js";
import { describeParseCache, parseCacheInvalidator } from "./parse-cache-observer.js";
import { resolveTool } from "./resolve-tool.js";
import { PACKAGE_VERSION } from "./version.js";

/** For status views: which grammars loaded here and why others did not. */
function describeLanguages(parser: AstGrepParserInstance): string {
  try {
    const table = parser.languages();
    const unavailable = table.unavailable.map((language) => `${language.id} (${language.reason})`);
    return `${table.available.size} grammars: ${[...table.available.keys()].join(", ")}${unavailable.length > 0 ? `; unavailable: ${unavailable.join("; ")}` : ""}`;
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
