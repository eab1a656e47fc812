import type { EventLoopSlicer } from "./event-loop-slice.js";
import type { LanguageInfo } from "./language-info.js";
import type { MatchCollector } from "./match-collector.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import type { SearchRequest } from "./search-request.js";
import type { SkipLedger } from "./skip-ledger.js";

/** One language's part of a search: its compiled pattern, its files, and what the search collects into. */
export interface LanguageSearch {
  compiled: CompiledPattern;
  paths: readonly string[];
  request: SearchRequest;
  collector: MatchCollector;
  skipped: SkipLedger;
  slicer: EventLoopSlicer;
}

/**
 * One way to read, parse and match a language's files: napi (`napiSearchBackend`), or the native
 * engine (`engineSearchBackend`). Each keeps its own kind of tree on its own shelf of the parse cache
 * and gives the same answers; a search picks one per language (see `searchLanguage`).
 */
export interface SearchBackend {
  /** Whether this backend reads the language's grammar here and now (asked at every search). */
  reads(language: LanguageInfo): boolean;
  /**
   * Search one language's files: those the backend's shelf of the parse cache holds unchanged are
   * matched from their kept trees, the rest are read, parsed and matched. Matches, syntax errors and
   * skips go to the search's collector and skip ledger.
   * @returns how many files were read (from the cache or the disk).
   */
  search(search: LanguageSearch): Promise<number>;
}
