import { ToolError } from "@runbound/tool-kit";
import { statSync } from "node:fs";
import { EventLoopSlicer } from "./event-loop-slice.js";
import { missingGrammarOfPath, searchedByDefaultGrammar } from "./grammar-availability.js";
import { availableLanguageIds, languageOfPath, type LanguageInfo, type LanguageTable } from "./language-registry.js";
import { searchLanguage } from "./language-search.js";
import { MatchCollector } from "./match-collector.js";
import type { ParseCache } from "./parse-cache.js";
import { compilePatternYielding, type CompiledPattern } from "./pattern-compiler.js";
import { SkipLedger, type SkippedEntry, type SkipReason } from "./skip-ledger.js";
import type { ErrorRegion, SyntaxErrorSite } from "./syntax-error-ledger.js";
import { listWorkspaceFiles } from "./workspace-files.js";

/** What to search. */
export interface SearchRequest {
  /** The run's working directory (absolute, real). */
  workdir: string;
  /** A file or directory inside the workdir (absolute, real). */
  root: string;
  /** The grammar; inferred from a file's extension, or every language present for a directory. */
  language?: LanguageInfo;
  /** The pattern snippet. */
  pattern: string;
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

/** A metavariable's capture: its source text and UTF-16 span (`start` = `end` = -1 for an empty `$$$` capture). */
export interface Capture {
  text: string;
  start: number;
  end: number;
  multi: boolean;
}

/** One match. Lines and columns are 0-based; `start`/`end` are UTF-16 offsets, usable with `String.slice`. */
export interface SearchMatch {
  path: string;
  language: string;
  line: number;
  column: number;
  endLine: number;
  start: number;
  end: number;
  text: string;
  captures: Record<string, Capture>;
  /** Set when the match includes a terminator the pattern's context added (see `PatternReading.spannedTerminator`). */
  terminator?: string;
}

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


function notFound(root: string): ToolError {
  return new ToolError({ code: "not_found", message: `Path \`${root}\` does not exist. Give an existing file or directory inside the working directory.` });
}

/**
 * Search files under a root for a pattern. Lists the files (every skip counted), compiles the pattern
 * per language (throwing `invalid_input` when it parses in none), and searches each language's files
 * (language-search.ts): from the parse cache, on the native engine, or with napi.
 */
export async function searchStructurally(languages: () => LanguageTable, request: SearchRequest): Promise<SearchOutcome> {
  let isFile: boolean;
  try {
    isFile = statSync(request.root).isFile();
  } catch {
    throw notFound(request.root);
  }
  let fileLanguage: LanguageInfo | undefined;
  if (isFile) {
    fileLanguage = request.language ?? languageOfPath(languages(), request.root);
    if (fileLanguage === undefined) {
      throw new ToolError({
        code: "invalid_input",
        message: `The language of \`${request.root}\` cannot be inferred from its extension. Pass \`language\`, one of: ${availableLanguageIds(languages()).join(", ")}.`,
      });
    }
  }
  const notInstalled = new Map<string, number>();
  const countNotInstalled = (path: string): void => {
    const grammar = missingGrammarOfPath(languages(), path);
    if (grammar !== undefined && searchedByDefaultGrammar(grammar)) notInstalled.set(grammar, (notInstalled.get(grammar) ?? 0) + 1);
  };
  const languageFor = (path: string): LanguageInfo | undefined => {
    if (fileLanguage !== undefined) return fileLanguage;
    if (request.language !== undefined) {
      const lower = path.toLowerCase();
      return request.language.extensions.some((extension) => lower.endsWith(`.${extension}`)) ? request.language : undefined;
    }
    const inferred = languageOfPath(languages(), path);
    if (inferred === undefined) countNotInstalled(path);
    return inferred?.searchedByDefault === true ? inferred : undefined;
  };
  const skipped = new SkipLedger();
  const byLanguage = new Map<LanguageInfo, string[]>();
  const listed = await listWorkspaceFiles(request.workdir, request.root, (path) => languageFor(path) !== undefined, { skipped, signal: request.signal });
  for (const path of listed) {
    const language = languageFor(path)!;
    let list = byLanguage.get(language);
    if (list === undefined) byLanguage.set(language, (list = []));
    list.push(path);
  }

  const explicit = request.language ?? fileLanguage;
  const compiledByLanguage: Array<[CompiledPattern, string[]]> = [];
  const notParsed: LanguageNotParsed[] = [];
  if (explicit !== undefined) {
    // One language asked for: its best tolerant reading beats a refusal, as in ast-grep (the answer says so,
    // and a tolerant reading that finds nothing is refused by the tool). Inferred languages stay strict.
    compiledByLanguage.push([await compilePatternYielding(explicit, request.pattern, request.signal, { tolerant: true }), byLanguage.get(explicit) ?? []]);
  } else {
    for (const [language, paths] of byLanguage) {
      try {
        compiledByLanguage.push([await compilePatternYielding(language, request.pattern, request.signal), paths]);
      } catch (error) {
        // An abort is the call's answer, not a language in which the pattern does not parse.
        if (!ToolError.isInstance(error) || request.signal?.aborted === true) throw error;
        notParsed.push({ language: language.id, files: paths.length, reason: error.message });
      }
    }
    if (compiledByLanguage.length === 0 && notParsed.length > 0) {
      const present = notParsed.map((entry) => `${entry.language} (${entry.files} files)`).join(", ");
      throw new ToolError({
        code: "invalid_input",
        message: `The pattern \`${request.pattern.trim().slice(0, 200)}\` does not parse in any language present under the path: ${present}. Pass \`language\` to see every context tried and where it broke. First reason: ${notParsed[0]!.reason}`,
      });
    }
  }

  const collector = new MatchCollector(request.keep, request.rewriting === true);
  const scanned: Record<string, number> = {};
  request.cache?.beginSearch();
  const slicer = new EventLoopSlicer(request.signal);
  for (const [compiled, paths] of compiledByLanguage) {
    scanned[compiled.language.id] = await searchLanguage({ compiled, paths, request, collector, skipped, slicer });
  }
  return {
    compiled: compiledByLanguage.map(([compiled]) => compiled),
    notParsed,
    notInstalled: [...notInstalled].map(([language, files]) => ({ language, files, leftOut: languages().notSelected.includes(language) })),
    total: collector.total,
    filesWithMatches: collector.filesWithMatches,
    matches: collector.matches,
    scanned,
    skipped: skipped.counts,
    skippedEntries: skipped.named,
    syntaxErrors: { files: collector.syntaxErrors.files, parsed: collector.parsed, named: collector.syntaxErrors.named, regions: collector.syntaxErrors.regions },
  };
}
