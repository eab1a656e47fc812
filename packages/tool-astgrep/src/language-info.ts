/**
 * Where a grammar comes from: built into @ast-grep/napi, an `@ast-grep/lang-*` package, a grammar
 * module the host handed in, or built into the native engine (@runbound/astgrep-engine).
 */
export type GrammarSource = "napi" | "package" | "host" | "engine";

/** One language the parser can read. */
export interface LanguageInfo {
  /** The id a caller passes as `language`, e.g. `python`. */
  id: string;
  /** The name napi knows the grammar by. */
  napiLang: string;
  /** File extensions (lowercase, no dot) whose files are read with this grammar. */
  extensions: readonly string[];
  /**
   * The character napi substitutes for `$` before parsing a pattern of a dynamic grammar
   * (`$` for the built-in grammars); for a grammar whose character is two UTF-16 units (the native
   * engine's C and C++, U+10000), a one-unit letter that parses alike, for the parser's own checks.
   */
  expandoChar: string;
  /** The grammar's parser library, for a grammar registered at run time (its package lists the node kinds beside it). */
  libraryPath?: string;
  /** Whether a directory search without `language` includes this language (not for data or markup files). */
  searchedByDefault: boolean;
  /** Where the grammar comes from. */
  source: GrammarSource;
  /** The grammar's named node kinds, when its source lists them itself (the native engine's grammars). */
  kinds?: readonly string[];
}
