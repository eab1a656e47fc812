import type { LanguageInfo } from "./language-info.js";
import type { ParseCache } from "./parse-cache.js";
import type { PatternObject } from "./pattern-object.js";
import type { RuleQuery } from "./rule-text.js";

/** What to look for: a pattern snippet, a pattern object (`{context, selector}`), or an ast-grep rule. */
export type SearchQuery = string | PatternObject | { rule: RuleQuery };

/** What to search. */
export interface SearchRequest {
  /** The run's working directory (absolute, real). */
  workdir: string;
  /** A file or directory inside the workdir (absolute, real). */
  root: string;
  /** The grammar; inferred from a file's extension, or every language present for a directory. */
  language?: LanguageInfo;
  /** The pattern snippet, pattern object or rule. */
  pattern: SearchQuery;
  /** How many matches to keep in full (the first ones by path and position); the rest are only counted. */
  keep: number;
  /** Files bigger than this are skipped. */
  maxFileBytes: number;
  /** Stops the search between files; the search then throws the reason (see `abortError`). */
  signal?: AbortSignal;
  /**
   * The search feeds a rewrite: keep every ERROR region of each file (a rewrite refuses to touch them)
   * and look for MISSING nodes too; otherwise only the first few files' first ERROR is kept.
   */
  rewriting?: boolean;
  /** Parsed trees kept between the run's searches; without one every file is read and parsed. */
  cache?: ParseCache;
}
