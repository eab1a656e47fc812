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
   * (`$` for the built-in grammars).
   */
  expandoChar: string;
  /** The grammar's parser library, for a grammar registered at run time (its package lists the node kinds beside it). */
  libraryPath?: string;
  /** Whether a directory search without `language` includes this language (not for data or markup files). */
  searchedByDefault: boolean;
}
