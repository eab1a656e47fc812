import type { CompiledPattern } from "./pattern-compiler.js";
import type { SearchMatch } from "./search-match.js";
import type { SkippedEntry, SkipReason } from "./skip-ledger.js";
import type { ErrorRegion, SyntaxErrorSite } from "./syntax-error-ledger.js";

/** A language present under the root in which the pattern does not parse. */
export interface LanguageNotParsed {
  language: string;
  files: number;
  reason: string;
}

/** Files under the root a known grammar would read, but its package is not installed here. */
export interface GrammarNotInstalled {
  language: string;
  files: number;
  /** Installed, but the parser's `languages` setting leaves it out. */
  leftOut: boolean;
}

/** What a search found, and what it looked at. */
export interface SearchOutcome {
  /** The compiled pattern per language searched. */
  compiled: CompiledPattern[];
  notParsed: LanguageNotParsed[];
  /** Files left out because their grammar is not installed, per grammar (never a silent skip). */
  notInstalled: GrammarNotInstalled[];
  total: number;
  filesWithMatches: number;
  /** The first `keep` matches, by path then position. */
  matches: SearchMatch[];
  /** Files read and searched, per language id. */
  scanned: Record<string, number>;
  skipped: Record<SkipReason, number>;
  /** The first skipped entries (at most `SkipLedger.namedLimit`), in the order they were met. */
  skippedEntries: SkippedEntry[];
  /** The parsed files with ERROR nodes, where matches may be missing (see {@link SyntaxErrors}). */
  syntaxErrors: SyntaxErrors;
}

/**
 * Files whose parse has ERROR nodes. Only files that contain the pattern's literal words are parsed
 * (`parsed`); a file without them cannot match, however it parses.
 */
export interface SyntaxErrors {
  files: number;
  parsed: number;
  /** The first files by path (at most `SyntaxErrorLedger.namedLimit`) and where their first ERROR is. */
  named: SyntaxErrorSite[];
  /** Every ERROR region per file, when the request is `rewriting`. */
  regions: ReadonlyMap<string, readonly ErrorRegion[]>;
}
