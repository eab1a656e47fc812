import type { SearchMatch } from "./search-match.js";
import type { FileSyntaxErrors } from "./syntax-error-ledger.js";

/** What one pattern found in one file: every match counted, the first ones materialized. */
export interface FileMatches {
  count: number;
  /** The first `matches.length` matches, in position order (fewer than `count` when no more were needed). */
  matches: readonly SearchMatch[];
  errors: FileSyntaxErrors | undefined;
}
