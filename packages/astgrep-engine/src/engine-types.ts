// The addon's exports, written by hand to mirror src/*.rs: napi-rs turns each snake_case Rust field
// into the camelCase property named here, an `Option` input into an optional property, and an
// `Option` output into a property that is absent when the Rust value is `None`.

/** A rule object as @ast-grep/napi's `NapiConfig` holds it; @ast-grep/napi's `NapiConfig` fits here. */
export interface RuleConfig {
  /** The rule: `{ pattern }`, `{ kind }`, `{ all: [...] }`, … as in an ast-grep rule file. */
  readonly rule: object;
  /** Extra rules a metavariable's match must satisfy, by metavariable name. */
  readonly constraints?: object;
  /** Named rules the rule refers to with `matches`. */
  readonly utils?: object;
  /** Transformations of captured text. */
  readonly transform?: unknown;
  /**
   * A rule file's rewriters, for its `rewrite` transforms (napi's `NapiConfig` has none): with them
   * the rule is compiled as ast-grep compiles a rule file, each rewriter checked and registered.
   */
  readonly rewriters?: readonly object[];
}

/** A query as `searchSources` and `searchTrees` take it (`QueryInput` in tree_store.rs). */
export interface QueryInput {
  /** The napi name of the grammar: `TypeScript`, `Tsx`, `JavaScript`, `Html`, `Css`, or a registered dynamic grammar's name. */
  language: string;
  /** The rule, as napi's `NapiConfig` takes it. */
  config: RuleConfig;
  /** Single metavariables (`$A`) whose captures every materialized match carries. */
  single: string[];
  /** Multiple metavariables (`$$$A`) whose captures every materialized match carries. */
  multi: string[];
  /** Metavariables the config's `transform` defines, whose text every materialized match carries (with `start` = `end` = -1). */
  transformed?: string[];
  /** The reading's node kind; absent for a reading that matches nodes of any kind. Only MISSING reporting uses it. */
  readingKind?: string;
  /** A rewrite: also report MISSING nodes (tokens the parser assumed), not only ERROR nodes. */
  rewriting: boolean;
}

/** A metavariable's capture in one match (`CaptureData` in matching.rs). */
export interface CaptureData {
  name: string;
  /** The captured source; for `$$$`, from the first to the last node with the separators between. */
  text: string;
  /** UTF-16 offset of the start in the file; -1 for an empty `$$$` capture and a transformed metavariable. */
  start: number;
  /** UTF-16 offset of the end in the file; -1 for an empty `$$$` capture. */
  end: number;
  /** Whether this is a `$$$` capture. */
  multi: boolean;
}

/** One match (`MatchData` in matching.rs): 0-based lines, UTF-16 columns and offsets, as a JS string indexes them. */
export interface MatchData {
  line: number;
  /** UTF-16 code units from the start of the line. */
  column: number;
  endLine: number;
  /** UTF-16 offset of the match's start in the file. */
  start: number;
  /** UTF-16 offset of the match's end in the file. */
  end: number;
  text: string;
  /** One entry per name in the query's `single`, then `multi`, then `transformed`, that the match bound. */
  captures: CaptureData[];
}

/** A file's first syntax error (`ErrorSite` in syntax_errors.rs): 0-based line and UTF-16 column. */
export interface ErrorSite {
  line: number;
  column: number;
  /** `ERROR` (code the grammar could not read) or `MISSING` (a token the parser assumed). */
  kind: "ERROR" | "MISSING";
  /** ERROR: the misparsed code with the token before it on the same line, one line, at most 40 UTF-16 units; MISSING: the assumed token's kind. */
  near: string;
}

/** An ERROR node's span (`ErrorRegion` in syntax_errors.rs), in UTF-16 offsets; `line` is 0-based. */
export interface ErrorRegion {
  start: number;
  end: number;
  line: number;
}

/** What one tree's syntax errors come to (`FileSyntaxErrors` in syntax_errors.rs). */
export interface FileSyntaxErrors {
  /** The earliest ERROR or (when rewriting) MISSING node; an ERROR wins a tie. */
  site: ErrorSite;
  /** Every ERROR node, in document order. */
  regions: ErrorRegion[];
}

/** What a query found in one file (`FileResult` in matching.rs). */
export interface FileResult {
  /** Every match in the file. */
  count: number;
  /** The first matches by position, at most as many as were wanted for this file. */
  matches: MatchData[];
  /** Absent when the tree has no ERROR node (and, when rewriting, no MISSING node). */
  errors?: FileSyntaxErrors;
}

/** What `searchSources` answers (`SourcesResult` in tree_store.rs). */
export interface SourcesResult {
  /** One per source, in the order given. */
  results: FileResult[];
  /** The kept trees' ids, one per source, when the search kept them; empty otherwise. */
  ids: number[];
}

/** How `searchPaths` reads and what it keeps (`PathSearchOptions` in path_search.rs). */
export interface PathSearchOptions {
  /** The workdir's real path: a file whose real path (by its open descriptor, on Linux) is outside it is refused. */
  workdir: string;
  /** Files bigger than this many bytes are refused from their size alone. */
  maxBytes: number;
  /** Texts a file must all contain to be parsed; a file without one is read and counted, not parsed. */
  literals: string[];
  /** Room for kept trees, costed at `treeCostPerByte` per source byte; 0 keeps none. */
  keepBytes: number;
  treeCostPerByte: number;
  /**
   * How many matches of the whole call become answers: the first by the order of `paths`, then
   * position (give the paths in the order answers list them). 4294967295 materializes every match (a rewrite).
   */
  answerMatches: number;
  /** A file bigger than this many bytes is never parsed beside another such file (its tree is many times its size). */
  bundleBytes: number;
}

/** A file's size, mtime and inode as `fs.Stats` gives them (`FileIdentity` in path_search.rs). */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** What happened to one path of a `searchPaths` call (`PathOutcome` in path_search.rs). */
export interface PathOutcome {
  /** Why the file was not read: `symlink`, `not_regular`, `outside_workdir`, `too_large`, `binary`, `not_utf8` or `unreadable`. */
  skipped?: string;
  /** The errno name of an `unreadable` file, as Node names it (`EACCES`). */
  code?: string;
  /** The status of the descriptor the file was read through; absent for a file refused before. */
  identity?: FileIdentity;
  /** Whether the file starts with a UTF-8 byte order mark. */
  bom: boolean;
  /** Absent for a skipped file and for a file without every literal (read, not parsed). */
  result?: FileResult;
  /** The kept tree's id, when its tree was kept. */
  id?: number;
  /** The bytes of a kept tree's file. */
  bytes?: Buffer;
}

/** What `searchPaths` answers (`PathSearchResult` in path_search.rs). */
export interface PathSearchResult {
  /** One per path, in order; empty when the search was cancelled (it then kept nothing). */
  outcomes: PathOutcome[];
  cancelled: boolean;
}

/** Stops a `searchPaths` call between files (`SearchCancellation` in path_search.rs). */
export interface SearchCancellation {
  cancel(): void;
}

/** One grammar library, as napi's `registerDynamicLanguage` takes it (`DynamicGrammar` in registration.rs). */
export interface DynamicGrammar {
  /** The name queries give as `language`. */
  name: string;
  /** The compiled tree-sitter parser: an @ast-grep/lang-* package's `libraryPath`. */
  libraryPath: string;
  /** The parser's entry symbol; `tree_sitter_<name>` (dashes as underscores) when absent. */
  languageSymbol?: string;
  /** The metavariable character, exactly one; `$` when absent. */
  metaVarChar?: string;
  /** The character substituted for `$` in patterns before parsing, exactly one. */
  expandoChar?: string;
  /** File extensions, lowercase without the dot. */
  extensions: string[];
}

/**
 * A grammar compiled into the engine that @ast-grep/napi lacks (Bash, C, C++, HCL, Nix, PHP, Rust, Solidity, Zig:
 * `EngineGrammar` in engine_grammars.rs). Queries name it by `name`; napi can read the same grammar
 * from the engine binary: `registerDynamicLanguage({ [name]: { libraryPath: engineBinaryPath(),
 * languageSymbol, expandoChar, extensions } })`.
 */
export interface EngineGrammar {
  /** The id queries give as `language`, e.g. `hcl`. */
  name: string;
  /** The C symbol in the engine binary that answers the grammar's tree-sitter language. */
  languageSymbol: string;
  /**
   * The character patterns have instead of `$` when they are parsed (`$` when the grammar keeps it);
   * C and C++ take U+10000, two UTF-16 units.
   */
  expandoChar: string;
  /** File extensions, lowercase without the dot. */
  extensions: string[];
  /** The named node kinds the grammar can produce, sorted. */
  kinds: string[];
}

/**
 * Parsed trees kept for a host, and searches over sources and over those trees (`TreeStore` in
 * tree_store.rs). Searches run on the engine's threads; kept trees live until released.
 */
export interface TreeStore {
  /**
   * Parse and match sources (UTF-8 bytes; an invalid sequence reads as U+FFFD). With `keep`, the
   * trees stay in the store and their ids come back. `wanted[i]`: how many of source i's first
   * matches to materialize. An unknown language or a rule that does not compile throws at the call.
   */
  searchSources(query: QueryInput, sources: Buffer[], wanted: number[], keep: boolean): Promise<SourcesResult>;
  /**
   * Open, check, read, parse and match files by path on the engine's threads, refusing what
   * tool-astgrep's reader refuses (a symlink or FIFO swapped in, a non-regular file, a file outside
   * `options.workdir`, an over-size, binary or non-UTF-8 file). Trees are kept while `keepBytes`
   * has room. `wanted[i]`: how many of file i's first matches the host may need. Cancelling
   * `cancellation` stops the call between files; it then answers `cancelled` and keeps nothing.
   */
  searchPaths(
    query: QueryInput,
    paths: string[],
    wanted: number[],
    options: PathSearchOptions,
    cancellation: SearchCancellation,
  ): Promise<PathSearchResult>;
  /**
   * Match kept trees. `wanted[i]`: how many of tree i's first matches to materialize. Rejects when an
   * id is not in the store (released, or never kept).
   */
  searchTrees(query: QueryInput, ids: number[], wanted: number[]): Promise<FileResult[]>;
  /** Let kept trees go (a search still matching one finishes first). Unknown ids are ignored. */
  release(ids: number[]): void;
  /** Let every kept tree go. */
  clear(): void;
  /** How many trees are kept. */
  readonly size: number;
}

/** The addon's exports. */
export interface AstGrepEngine {
  TreeStore: new () => TreeStore;
  SearchCancellation: new () => SearchCancellation;
  /**
   * Register dynamic grammars. The registry can be filled once per process: a second call throws
   * rather than being ignored, so give every grammar in one call.
   */
  registerDynamicLanguages(grammars: DynamicGrammar[]): void;
  /** The grammars compiled into the engine that @ast-grep/napi lacks (Bash, C, C++, HCL, Nix, PHP, Rust, Solidity, Zig). */
  engineGrammars(): EngineGrammar[];
  /**
   * ast-grep's reason for refusing a rule (`check_rule` in rule_compile.rs), or `null` when it
   * compiles as the searches compile it; with `rewriters`, as ast-grep compiles a rule file (an
   * invalid rewriter is named, as is a `rewrite` transform's undefined one). Throws for an unknown
   * `language`. Absent from binaries built before the engine took rewriters.
   */
  checkRule?(language: string, config: RuleConfig): string | null;
}
