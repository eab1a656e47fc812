import { type AtomicWriteFileSystem } from "@runbound/runtime-kit";
import { defineResource } from "@runbound/tool-kit";
import { assertGrammarForFile, offeredLanguage } from "./grammar-availability.js";
import type { LanguageInfo } from "./language-info.js";
import { builtinLanguage, selectLanguages, type LanguageChoice, type LanguageTable } from "./language-registry.js";
import { createParseCache, type ParseCache } from "./parse-cache.js";
import { compilePattern, type CompiledPattern } from "./pattern-compiler.js";
import type { SearchOutcome } from "./search-outcome.js";
import type { SearchRequest } from "./search-request.js";
import { StagedEditStore } from "./staged-edit-store.js";
import { searchStructurally } from "./structural-search.js";

/** Settings of {@link createAstGrepParser}. */
export interface AstGrepParserSettings {
  /** Files bigger than this many bytes are skipped (and counted); default 2 MiB. */
  maxFileBytes?: number;
  /** File-system calls `resolve` writes with; replace one only to inject failures in tests. */
  fileOperations?: Partial<AtomicWriteFileSystem>;
  /**
   * The grammars to offer besides the five built into @ast-grep/napi (TypeScript, TSX, JavaScript,
   * HTML, CSS) and those built into the native engine when it loads (HCL, Nix, Solidity, Zig, and its
   * copies of C++, Bash, Rust, C and PHP, used over their packages): ids of `@ast-grep/lang-*` packages
   * (`["python", "go"]`; naming `cpp`, `bash`, `rust`, `c` or `php` loads the package where the engine
   * does not), or `{ id, grammar }` with a
   * module the host imported (`{ id: "python", grammar: python }` after
   * `import python from "@ast-grep/lang-python"`). Default: every known `@ast-grep/lang-*` package
   * installed where this package or the program's entry script can resolve it.
   */
  languages?: readonly LanguageChoice[];
  /**
   * Memory for parsed trees kept between searches of the run (estimated native size plus kept
   * results), least recently used dropped first; default 256 MiB, 0 turns the cache off.
   */
  parseCacheBytes?: number;
}

/** The parser resource: grammars, the pattern compiler, the search engine and the run's staged edits. */
export interface AstGrepParserInstance {
  /** The size limit for searched files, in bytes. */
  readonly maxFileBytes: number;
  /** The grammars loaded in this process (registered on first call) and those that are not. */
  languages(): LanguageTable;
  /**
   * The language with this id or alias, if it is available; undefined for a name no grammar has.
   * @throws ToolError `unavailable` when the grammar is known but not installed (naming the package to install).
   */
  language(id: string): LanguageInfo | undefined;
  /** Compile a pattern for one language; throws `invalid_input` naming every context tried. */
  compile(language: LanguageInfo, pattern: string): CompiledPattern;
  /** Search a file or directory; `maxFileBytes` defaults to the parser's. */
  search(request: Omit<SearchRequest, "maxFileBytes"> & { maxFileBytes?: number }): Promise<SearchOutcome>;
  /** Edits staged by `ast_edit` in this run. */
  readonly edits: StagedEditStore;
  /** The file-system calls `resolve` writes with (the defaults unless a test replaced one). */
  readonly fileOperations: Partial<AtomicWriteFileSystem>;
  /** Parsed trees kept between searches, or `undefined` when `parseCacheBytes` is 0. */
  readonly parseCache: ParseCache | undefined;
  /** Drop the staged edits and the parse cache. */
  dispose(): void;
}

/** The key tools use to reach the parser resource. */
export const AstGrepParser = defineResource<AstGrepParserInstance>(
  "astgrep.parser",
  "Structural search and staged rewrites with ast-grep (@ast-grep/napi and its language grammars); one per run.",
);

/**
 * Create the parser resource for one run. The `@ast-grep/lang-*` grammars are registered lazily, once
 * per process, on the first use that needs them (a search in a language that is not built in or
 * with no `language`, an edit, `status`); the staged edits belong to this instance and vanish with it.
 * @throws ToolError `invalid_input` when `languages` names a grammar that does not exist, or `parseCacheBytes` is negative.
 */
export function createAstGrepParser(settings: AstGrepParserSettings = {}): AstGrepParserInstance {
  const maxFileBytes = settings.maxFileBytes ?? 2 * 1024 * 1024;
  const edits = new StagedEditStore();
  const languageTable = selectLanguages(settings.languages);
  const parseCache = createParseCache(settings.parseCacheBytes);
  return {
    maxFileBytes,
    languages: languageTable,
    language: (id) => builtinLanguage(id) ?? offeredLanguage(languageTable(), id),
    compile: compilePattern,
    search: async (request) => {
      if (request.language === undefined) assertGrammarForFile(languageTable(), request.root);
      return searchStructurally(languageTable, {
        maxFileBytes,
        ...(parseCache === undefined ? {} : { cache: parseCache }),
        ...request,
      });
    },
    edits,
    fileOperations: settings.fileOperations ?? {},
    parseCache,
    dispose: () => {
      edits.clear();
      parseCache?.clear();
    },
  };
}
