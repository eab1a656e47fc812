import { astGrepPlugin } from "./plugin.js";

export { astGrepPlugin };
export default astGrepPlugin;
export { createAstGrepPlugin, type AstGrepPluginSettings } from "./plugin.js";
export {
  AstGrepParser,
  createAstGrepParser,
  type AstGrepParserInstance,
  type AstGrepParserSettings,
} from "./astgrep-parser.js";
export { astGrepTool } from "./ast-grep-tool.js";
export { astEditTool } from "./ast-edit-tool.js";
export { resolveTool } from "./resolve-tool.js";
export type { LanguageInfo } from "./language-info.js";
export type { InstallableLanguage, LanguageChoice, LanguageTable, UnavailableLanguage } from "./language-registry.js";
export type { GrammarModule } from "./grammar-packages.js";
export type { CompiledPattern, PatternReading } from "./pattern-compiler.js";
export type { Capture, SearchMatch } from "./search-match.js";
export type { GrammarNotInstalled, SearchOutcome } from "./search-outcome.js";
export type { SearchRequest } from "./search-request.js";
export type { StagedEdit, StagedEditStore, StagedFile } from "./staged-edit-store.js";
export { PACKAGE_VERSION } from "./version.js";
