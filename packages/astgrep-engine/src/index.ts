export { engineBinaryPath, loadAstGrepEngine, tryLoadAstGrepEngine } from "./load-astgrep-engine.js";
export type {
  AstGrepEngine,
  CaptureData,
  DynamicGrammar,
  ErrorRegion,
  ErrorSite,
  FileResult,
  FileSyntaxErrors,
  MatchData,
  QueryInput,
  RuleConfig,
  SourcesResult,
  TreeStore,
} from "./engine-types.js";
