import { definePlugin, defineResourceProvider } from "@runbound/tool-kit";
import { astEditTool } from "./ast-edit-tool.js";
import { astGrepTool } from "./ast-grep-tool.js";
import { AstGrepParser, createAstGrepParser } from "./astgrep-parser.js";
import { resolveTool } from "./resolve-tool.js";
import { PACKAGE_VERSION } from "./version.js";

/** The plugin: ast_grep, ast_edit and resolve, plus a default parser resource for generic runners. */
export const astGrepPlugin = definePlugin({
  name: "@runbound/tool-astgrep",
  version: PACKAGE_VERSION,
  tools: [astGrepTool, astEditTool, resolveTool],
  resourceProviders: [
    defineResourceProvider({
      key: AstGrepParser,
      create: () => {
        const parser = createAstGrepParser();
        return { value: parser, dispose: () => parser.dispose() };
      },
    }),
  ],
});
