export { engineBinaryPath, loadAstGrepEngine, tryLoadAstGrepEngine } from "./load-astgrep-engine.js";
export { findEngineBinary } from "./find-engine-binary.js";
export type { EngineBinary, EngineBinaryLookup } from "./find-engine-binary.js";
export type {
  AstGrepEngine,
  CaptureData,
  DynamicGrammar,
  EngineGrammar,
  ErrorRegion,
  ErrorSite,
  FileIdentity,
  FileResult,
  FileSyntaxErrors,
  MatchData,
  PathOutcome,
  PathSearchOptions,
  PathSearchResult,
  QueryInput,
  RuleConfig,
  SearchCancellation,
  SourcesResult,
  TreeStore,
} from "./engine-types.js";
