import { defineResource, type AtomicWriteFileSystem } from "@runbound/tool-kit";
import { findLanguage, languageTable, type LanguageInfo, type LanguageTable } from "./language-registry.js";
import { compilePattern, type CompiledPattern } from "./pattern-compiler.js";
import { StagedEditStore } from "./staged-edit-store.js";
import { searchStructurally, type SearchOutcome, type SearchRequest } from "./structural-search.js";

/** Settings of {@link createAstGrepParser}. */
export interface AstGrepParserSettings {
  /** Files bigger than this many bytes are skipped (and counted); default 2 MiB. */
  maxFileBytes?: number;
  /** File-system calls `resolve` writes with; replace one only to inject failures in tests. */
  fileOperations?: Partial<AtomicWriteFileSystem>;
}

/** The parser resource: grammars, the pattern compiler, the search engine and the run's staged edits. */
export interface AstGrepParserInstance {
  /** The size limit for searched files, in bytes. */
  readonly maxFileBytes: number;
  /** The grammars loaded in this process (registered on first call) and those that are not. */
  languages(): LanguageTable;
  /** The language with this id or alias, if it is available. */
  language(id: string): LanguageInfo | undefined;
  /** Compile a pattern for one language; throws `invalid_input` naming every context tried. */
  compile(language: LanguageInfo, pattern: string): CompiledPattern;
  /** Search a file or directory; `maxFileBytes` defaults to the parser's. */
  search(request: Omit<SearchRequest, "maxFileBytes"> & { maxFileBytes?: number }): Promise<SearchOutcome>;
  /** Edits staged by `ast_edit` in this run. */
  readonly edits: StagedEditStore;
  /** The file-system calls `resolve` writes with (the defaults unless a test replaced one). */
  readonly fileOperations: Partial<AtomicWriteFileSystem>;
  /** Drop the staged edits. */
  dispose(): void;
}

/** The key tools use to reach the parser resource. */
export const AstGrepParser = defineResource<AstGrepParserInstance>(
  "astgrep.parser",
  "Structural search and staged rewrites with ast-grep (@ast-grep/napi and its language grammars); one per run.",
);

/**
 * Create the parser resource for one run. The grammars are registered lazily, once per process, on
 * first use; the staged edits belong to this instance and vanish with it.
 */
export function createAstGrepParser(settings: AstGrepParserSettings = {}): AstGrepParserInstance {
  const maxFileBytes = settings.maxFileBytes ?? 2 * 1024 * 1024;
  const edits = new StagedEditStore();
  return {
    maxFileBytes,
    languages: languageTable,
    language: (id) => findLanguage(languageTable(), id),
    compile: compilePattern,
    search: (request) => searchStructurally(languageTable(), { maxFileBytes, ...request }),
    edits,
    fileOperations: settings.fileOperations ?? {},
    dispose: () => edits.clear(),
  };
}
