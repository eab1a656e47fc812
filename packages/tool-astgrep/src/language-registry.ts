import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { napi } from "./napi-binding.js";

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
  /** Whether a directory search without `language` includes this language (not for data or markup files). */
  searchedByDefault: boolean;
}

/** A grammar that could not be loaded here, and why. */
export interface UnavailableLanguage {
  id: string;
  reason: string;
}

/** The outcome of loading the grammars, shared by the whole process. */
export interface LanguageTable {
  available: ReadonlyMap<string, LanguageInfo>;
  unavailable: readonly UnavailableLanguage[];
  /** Lowercase extension → language. */
  byExtension: ReadonlyMap<string, LanguageInfo>;
}

interface DynamicGrammar {
  id: string;
  /** Extensions added to the package's own list (lang-python lists only `py`). */
  extraExtensions?: readonly string[];
  /** Extensions this grammar reads only when asked by id, because a built-in grammar owns them. */
  ownedElsewhere?: readonly string[];
  searchedByDefault: boolean;
}

const builtinGrammars: readonly LanguageInfo[] = [
  { id: "typescript", napiLang: "TypeScript", extensions: ["ts", "mts", "cts"], expandoChar: "$", searchedByDefault: true },
  { id: "tsx", napiLang: "Tsx", extensions: ["tsx"], expandoChar: "$", searchedByDefault: true },
  { id: "javascript", napiLang: "JavaScript", extensions: ["js", "mjs", "cjs", "jsx"], expandoChar: "$", searchedByDefault: true },
  { id: "html", napiLang: "Html", extensions: ["html", "htm", "xhtml"], expandoChar: "z", searchedByDefault: false },
  { id: "css", napiLang: "Css", extensions: ["css"], expandoChar: "_", searchedByDefault: false },
];

const dynamicGrammars: readonly DynamicGrammar[] = [
  { id: "python", extraExtensions: ["pyi"], searchedByDefault: true },
  { id: "go", searchedByDefault: true },
  { id: "rust", searchedByDefault: true },
  { id: "c", searchedByDefault: true },
  { id: "cpp", extraExtensions: ["c++", "h++", "hxx"], searchedByDefault: true },
  { id: "java", searchedByDefault: true },
  { id: "kotlin", searchedByDefault: true },
  { id: "swift", searchedByDefault: true },
  { id: "csharp", searchedByDefault: true },
  { id: "ruby", searchedByDefault: true },
  { id: "php", searchedByDefault: true },
  { id: "scala", searchedByDefault: true },
  { id: "bash", searchedByDefault: true },
  { id: "lua", searchedByDefault: true },
  { id: "elixir", searchedByDefault: true },
  { id: "dart", searchedByDefault: true },
  { id: "haskell", searchedByDefault: true },
  { id: "json", searchedByDefault: false },
  { id: "yaml", searchedByDefault: false },
  { id: "toml", searchedByDefault: false },
  { id: "sql", searchedByDefault: false },
  { id: "markdown", searchedByDefault: false },
  // Angular templates are .html files; the built-in html grammar keeps the extension, angular is opt-in by id.
  { id: "angular", ownedElsewhere: ["html"], searchedByDefault: false },
];

interface LangPackage {
  libraryPath: string;
  extensions: string[];
  languageSymbol?: string;
  expandoChar?: string;
}

// napi keeps dynamic grammars in a process-wide OnceLock, so the outcome is kept process-wide too,
// even when two copies of this package are loaded (research astgrep.md §0.2).
const tableKey = Symbol.for("runbound.tool-astgrep.language-table");

function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime === undefined;
}

function readLibraryPath(langPackage: LangPackage): string {
  // @ast-grep/setup-lang logs "found prebuild…" with console.debug on every access, which would
  // corrupt a host that speaks a protocol on stdout (MCP stdio).
  const debug = console.debug;
  console.debug = () => {};
  try {
    return langPackage.libraryPath;
  } finally {
    console.debug = debug;
  }
}

function loadTable(): LanguageTable {
  napi();
  const available = new Map<string, LanguageInfo>();
  const unavailable: UnavailableLanguage[] = [];
  for (const info of builtinGrammars) available.set(info.id, info);

  const require = createRequire(import.meta.url);
  const musl = isMusl();
  const registrations: Record<string, { libraryPath: string; extensions: string[]; languageSymbol?: string; expandoChar?: string }> = {};
  const pending: LanguageInfo[] = [];
  for (const grammar of dynamicGrammars) {
    const packageName = `@ast-grep/lang-${grammar.id}`;
    let langPackage: LangPackage;
    let libraryPath: string;
    try {
      langPackage = require(packageName) as LangPackage;
      libraryPath = readLibraryPath(langPackage);
    } catch (error) {
      unavailable.push({ id: grammar.id, reason: `${packageName} did not load: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    // A libraryPath that does not exist or cannot be dlopen'ed aborts the whole process inside
    // registerDynamicLanguage (research astgrep.md §0.2), so only certain paths are registered.
    if (!existsSync(libraryPath)) {
      unavailable.push({ id: grammar.id, reason: `the parser library \`${libraryPath}\` does not exist (no prebuild for ${process.platform}-${process.arch}).` });
      continue;
    }
    // The prebuilds are linked against glibc; setup-lang picks them on musl too (research astgrep.md §1.1).
    if (musl && libraryPath.includes("prebuilds")) {
      unavailable.push({ id: grammar.id, reason: "the prebuilt parser needs glibc and this system uses musl; build the grammar from source (tree-sitter-cli)." });
      continue;
    }
    const extensions = [...langPackage.extensions, ...(grammar.extraExtensions ?? [])];
    registrations[grammar.id] = {
      libraryPath,
      extensions: langPackage.extensions.filter((extension) => !(grammar.ownedElsewhere ?? []).includes(extension)),
      ...(langPackage.languageSymbol === undefined ? {} : { languageSymbol: langPackage.languageSymbol }),
      ...(langPackage.expandoChar === undefined ? {} : { expandoChar: langPackage.expandoChar }),
    };
    pending.push({ id: grammar.id, napiLang: grammar.id, extensions, expandoChar: langPackage.expandoChar ?? "$", searchedByDefault: grammar.searchedByDefault });
  }

  if (pending.length > 0) {
    try {
      napi().registerDynamicLanguage(registrations);
    } catch (error) {
      for (const info of pending) {
        unavailable.push({ id: info.id, reason: `registration failed: ${error instanceof Error ? error.message : String(error)}` });
      }
      return withExtensionIndex(available, unavailable);
    }
  }
  // A second registerDynamicLanguage call is silently ignored (research astgrep.md §0.2): if the host
  // registered grammars before us, ours are missing. A probe parse tells which ones really work.
  for (const info of pending) {
    try {
      napi().parse(info.napiLang, "");
      available.set(info.id, info);
    } catch {
      unavailable.push({
        id: info.id,
        reason: "napi does not know this grammar: registerDynamicLanguage was already called in this process by other code, and napi honours only the first call.",
      });
    }
  }
  return withExtensionIndex(available, unavailable);
}

function withExtensionIndex(available: Map<string, LanguageInfo>, unavailable: UnavailableLanguage[]): LanguageTable {
  const byExtension = new Map<string, LanguageInfo>();
  for (const info of available.values()) {
    for (const extension of info.extensions) if (!byExtension.has(extension)) byExtension.set(extension, info);
  }
  return { available, unavailable, byExtension };
}

/** Load every grammar once per process (lazily, on first use) and return the table. */
export function languageTable(): LanguageTable {
  const store = globalThis as unknown as Record<symbol, LanguageTable | undefined>;
  store[tableKey] ??= loadTable();
  return store[tableKey];
}

const aliases: Readonly<Record<string, string>> = {
  ts: "typescript",
  js: "javascript",
  jsx: "javascript",
  py: "python",
  golang: "go",
  rs: "rust",
  "c++": "cpp",
  cc: "cpp",
  "c#": "csharp",
  cs: "csharp",
  kt: "kotlin",
  rb: "ruby",
  sh: "bash",
  shell: "bash",
  ex: "elixir",
  hs: "haskell",
  yml: "yaml",
  md: "markdown",
};

/** The language with this id or a common alias (`ts`, `py`, `c++` …), case-insensitive. */
export function findLanguage(table: LanguageTable, id: string): LanguageInfo | undefined {
  const key = id.trim().toLowerCase();
  return table.available.get(aliases[key] ?? key);
}

/** The language a file is read with, from its extension. */
export function languageOfPath(table: LanguageTable, path: string): LanguageInfo | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return undefined;
  return table.byExtension.get(name.slice(dot + 1).toLowerCase());
}

/** The ids of every available language, sorted, for messages. */
export function availableLanguageIds(table: LanguageTable): string[] {
  return [...table.available.keys()].sort();
}
