import { ToolError } from "@runbound/tool-kit";
import { statSync } from "node:fs";
import { EventLoopSlicer } from "./event-loop-slice.js";
import { missingGrammarOfPath, searchedByDefaultGrammar } from "./grammar-availability.js";
import type { LanguageInfo } from "./language-info.js";
import { availableLanguageIds, languageOfPath, type LanguageTable } from "./language-registry.js";
import { searchLanguage } from "./language-search.js";
import { MatchCollector } from "./match-collector.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import type { LanguageNotParsed, SearchOutcome } from "./search-outcome.js";
import { compileQuery, describeQuery } from "./query-compiler.js";
import type { SearchRequest } from "./search-request.js";
import { SkipLedger } from "./skip-ledger.js";
import { listWorkspaceFiles } from "./workspace-files.js";

function notFound(root: string): ToolError {
  return new ToolError({
    code: "not_found",
    message: `Path \`${root}\` does not exist. Give an existing file or directory inside the working directory.`,
  });
}

/**
 * Search files under a root for a pattern. Lists the files (every skip counted), compiles the pattern
 * per language (throwing `invalid_input` when it parses in none), and searches each language's files
 * on its backend (see `searchLanguage`): the native engine where it reads the grammar, else napi.
 */
export async function searchStructurally(
  languages: () => LanguageTable,
  request: SearchRequest,
): Promise<SearchOutcome> {
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
    if (grammar !== undefined && searchedByDefaultGrammar(grammar))
      notInstalled.set(grammar, (notInstalled.get(grammar) ?? 0) + 1);
  };
  const languageFor = (path: string): LanguageInfo | undefined => {
    if (fileLanguage !== undefined) return fileLanguage;
    if (request.language !== undefined) {
      const lower = path.toLowerCase();
      return request.language.extensions.some((extension) => lower.endsWith(`.${extension}`))
        ? request.language
        : undefined;
    }
    const inferred = languageOfPath(languages(), path);
    if (inferred === undefined) countNotInstalled(path);
    return inferred?.searchedByDefault === true ? inferred : undefined;
  };
  const skipped = new SkipLedger();
  const byLanguage = new Map<LanguageInfo, string[]>();
  const listed = await listWorkspaceFiles(request.workdir, request.root, (path) => languageFor(path) !== undefined, {
    skipped,
    signal: request.signal,
  });
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
    compiledByLanguage.push([
      await compileQuery(explicit, request.pattern, request.signal, { tolerant: true }),
      byLanguage.get(explicit) ?? [],
    ]);
  } else {
    for (const [language, paths] of byLanguage) {
      try {
        compiledByLanguage.push([await compileQuery(language, request.pattern, request.signal), paths]);
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
        message: `The ${describeQuery(request.pattern)} does not parse in any language present under the path: ${present}. Pass \`language\` to see every context tried and where it broke. First reason: ${notParsed[0]!.reason}`,
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
    notInstalled: [...notInstalled].map(([language, files]) => ({
      language,
      files,
      leftOut: languages().notSelected.includes(language),
    })),
    total: collector.total,
    filesWithMatches: collector.filesWithMatches,
    matches: collector.matches,
    scanned,
    skipped: skipped.counts,
    skippedEntries: skipped.named,
    syntaxErrors: {
      files: collector.syntaxErrors.files,
      parsed: collector.parsed,
      named: collector.syntaxErrors.named,
      regions: collector.syntaxErrors.regions,
    },
  };
}
