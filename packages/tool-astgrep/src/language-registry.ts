import { ToolError } from "@runbound/tool-kit";
import { existsSync } from "node:fs";
import { engineGrammars as loadEngineGrammars, registerEngineGrammars } from "./engine-binding.js";
import {
  canonicalLanguageId,
  engineGrammars,
  grammarPackageName,
  isPackagedGrammarInEngine,
  packagedGrammars,
  type PackagedGrammar,
} from "./grammar-catalog.js";
import {
  grammarSearchPaths,
  loadGrammarPackage,
  readGrammarModule,
  resolveGrammarPackage,
  type GrammarModule,
  type LoadedGrammarModule,
} from "./grammar-packages.js";
import type { LanguageInfo } from "./language-info.js";
import { napi } from "./napi-binding.js";

/** A grammar that is installed (or was handed in, or is built into the native engine) but could not be used here, and why. */
export interface UnavailableLanguage {
  id: string;
  reason: string;
  /** Set for a grammar only the native engine provides, when the engine is not loaded (`reason` says why). */
  needsEngine?: boolean;
}

/** A known grammar whose package is not installed where the parser looks for it. */
export interface InstallableLanguage {
  id: string;
  /** The npm package to install, e.g. `@ast-grep/lang-python`. */
  packageName: string;
  /**
   * Set for a grammar the native engine has a copy of (C++, Bash, Rust, C, PHP) when the engine is not
   * loaded: why not (the other way to get the grammar).
   */
  engineMissing?: string;
}

/** The grammars one parser offers, shared with every parser of the process where they agree. */
export interface LanguageTable {
  available: ReadonlyMap<string, LanguageInfo>;
  unavailable: readonly UnavailableLanguage[];
  /** Known grammars whose `@ast-grep/lang-*` package is not installed: install one to search that language. */
  installable: readonly InstallableLanguage[];
  /** Installed grammars this parser leaves out because its `languages` setting does not name them. */
  notSelected: readonly string[];
  /**
   * Installed `@ast-grep/lang-*` packages left unused because the native engine's copy of the grammar
   * (the ast-grep CLI's version) is used instead (optional, so a table made by hand need not list it).
   */
  replacedByEngine?: readonly string[];
  /** Lowercase extension → language. */
  byExtension: ReadonlyMap<string, LanguageInfo>;
}

/**
 * A grammar named in `createAstGrepParser({ languages })`: the id of an `@ast-grep/lang-*` package
 * (`"python"`, found where the default finds packages), or a grammar module the host imported itself
 * with the id to search it by (`{ id: "python", grammar: python }`), which is never looked up and may
 * also be a grammar built for a language no package covers.
 */
export type LanguageChoice = string | { id: string; grammar: GrammarModule; searchedByDefault?: boolean };

const builtinGrammars: readonly LanguageInfo[] = [
  {
    id: "typescript",
    napiLang: "TypeScript",
    extensions: ["ts", "mts", "cts"],
    expandoChar: "$",
    searchedByDefault: true,
    source: "napi",
  },
  { id: "tsx", napiLang: "Tsx", extensions: ["tsx"], expandoChar: "$", searchedByDefault: true, source: "napi" },
  {
    id: "javascript",
    napiLang: "JavaScript",
    extensions: ["js", "mjs", "cjs", "jsx"],
    expandoChar: "$",
    searchedByDefault: true,
    source: "napi",
  },
  {
    id: "html",
    napiLang: "Html",
    extensions: ["html", "htm", "xhtml"],
    expandoChar: "z",
    searchedByDefault: false,
    source: "napi",
  },
  { id: "css", napiLang: "Css", extensions: ["css"], expandoChar: "_", searchedByDefault: false, source: "napi" },
];

interface WantedGrammar {
  grammar: PackagedGrammar;
  /** The module the host handed in; without one, the package is looked up. */
  module?: GrammarModule;
}

interface LoadedGrammars {
  /** Every grammar that works in this process, the built-in ones included. */
  available: ReadonlyMap<string, LanguageInfo>;
  /** Grammars that were installed or handed in but could not be registered, with why. */
  failed: ReadonlyMap<string, string>;
  /** Known grammars whose package did not resolve. */
  missing: ReadonlySet<string>;
  /** Installed packages not registered because the native engine's copy of their grammar is. */
  replacedByEngine: ReadonlySet<string>;
  /** Why the native engine's own grammars are not offered, when they are not. */
  engineMissing?: string;
}

interface ProcessGrammars {
  /** What the parsers created before the first use asked for; registered together on that use. */
  wanted: Map<string, WantedGrammar>;
  loaded?: LoadedGrammars;
}

// napi keeps dynamic grammars in a process-wide OnceLock and honours only the first
// registerDynamicLanguage call (research astgrep.md §0.2), so what was registered is kept
// process-wide too, even when two copies of this package are loaded.
const processKey = Symbol.for("runbound.tool-astgrep.grammars");

function processGrammars(): ProcessGrammars {
  const store = globalThis as unknown as Record<symbol, ProcessGrammars | undefined>;
  store[processKey] ??= { wanted: new Map() };
  return store[processKey];
}

function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime === undefined;
}

/** Why a parser library must not reach registerDynamicLanguage, if it must not. */
function libraryProblem(libraryPath: string, musl: boolean): string | undefined {
  // A libraryPath that does not exist or cannot be dlopen'ed aborts the whole process inside
  // registerDynamicLanguage (research astgrep.md §0.2), so only certain paths are registered.
  if (!existsSync(libraryPath))
    return `the parser library \`${libraryPath}\` does not exist (no prebuild for ${process.platform}-${process.arch}).`;
  // The prebuilds are linked against glibc; setup-lang picks them on musl too (research astgrep.md §1.1).
  if (musl && libraryPath.includes("prebuilds"))
    return "the prebuilt parser needs glibc and this system uses musl; build the grammar from source (tree-sitter-cli).";
  return undefined;
}

/**
 * The expando character the parser's own pattern checks parse with. Those checks map offsets in the
 * text parsed to offsets in the pattern as written one to one, so the character must be one UTF-16
 * unit; the ast-grep CLI's C and C++ grammars take U+10000 (`𐀀`, two units, an identifier letter
 * where `_` would turn a literal `_FOO` into a metavariable). A letter of the same class in one unit
 * parses alike: U+4E00 (`一`), an identifier start and continue character in every grammar that
 * reads Unicode identifiers. napi and the engine still read patterns with the grammar's own character.
 */
function patternCheckExpando(expandoChar: string): string {
  return expandoChar.length === 1 ? expandoChar : "\u4e00";
}

function loadGrammars(wanted: ReadonlyMap<string, WantedGrammar>, searchPaths: readonly string[]): LoadedGrammars {
  napi();
  const available = new Map<string, LanguageInfo>(builtinGrammars.map((info) => [info.id, info]));
  const failed = new Map<string, string>();
  const missing = new Set<string>();
  const resolved = new Map<string, string>();
  for (const grammar of packagedGrammars) {
    if (wanted.get(grammar.id)?.module !== undefined) continue;
    const path = resolveGrammarPackage(grammarPackageName(grammar.id), searchPaths);
    if (path === undefined) missing.add(grammar.id);
    else resolved.set(grammar.id, path);
  }

  const musl = isMusl();
  const registrations: Record<
    string,
    { libraryPath: string; extensions: string[]; languageSymbol?: string; expandoChar?: string }
  > = {};
  const pending: LanguageInfo[] = [];
  const fromEngine = loadEngineGrammars();
  const engineMissing = "reason" in fromEngine ? fromEngine.reason : undefined;
  // The packaged grammars the engine has a copy of: the copy wins over an installed package (see
  // packagedGrammarsInEngine); a module the host handed in wins over both.
  const engineCopies = new Set(
    "reason" in fromEngine
      ? []
      : fromEngine.grammars.map((grammar) => grammar.name).filter((name) => isPackagedGrammarInEngine(name)),
  );
  const replacedByEngine = new Set<string>();
  for (const { grammar, module } of wanted.values()) {
    let loaded: LoadedGrammarModule;
    if (module === undefined && engineCopies.has(grammar.id)) {
      if (resolved.has(grammar.id)) replacedByEngine.add(grammar.id);
      continue;
    }
    if (module !== undefined) {
      loaded = readGrammarModule(module, `The grammar module given for \`${grammar.id}\``);
    } else {
      const path = resolved.get(grammar.id);
      if (path === undefined) continue;
      loaded = loadGrammarPackage(grammarPackageName(grammar.id), path);
    }
    if ("reason" in loaded) {
      failed.set(grammar.id, loaded.reason);
      continue;
    }
    const problem = libraryProblem(loaded.libraryPath, musl);
    if (problem !== undefined) {
      failed.set(grammar.id, problem);
      continue;
    }
    const { languageSymbol, expandoChar } = loaded.module;
    registrations[grammar.id] = {
      libraryPath: loaded.libraryPath,
      extensions: loaded.module.extensions.filter((extension) => !(grammar.ownedElsewhere ?? []).includes(extension)),
      ...(languageSymbol === undefined ? {} : { languageSymbol }),
      ...(expandoChar === undefined ? {} : { expandoChar }),
    };
    pending.push({
      id: grammar.id,
      napiLang: grammar.id,
      libraryPath: loaded.libraryPath,
      extensions: [...loaded.module.extensions, ...(grammar.extraExtensions ?? [])],
      expandoChar: expandoChar ?? "$",
      searchedByDefault: grammar.searchedByDefault,
      source: module === undefined ? "package" : "host",
    });
  }
  // The native engine's grammars, registered with napi from the engine binary, unless the host
  // handed in a module for the same id (then both napi and the engine read the host's library).
  if (!("reason" in fromEngine)) {
    for (const grammar of fromEngine.grammars) {
      const packaged = engineCopies.has(grammar.name) ? knownGrammars.get(grammar.name) : undefined;
      const known = engineGrammars.find((candidate) => candidate.id === grammar.name) ?? packaged;
      if (known === undefined || wanted.get(grammar.name)?.module !== undefined) continue;
      registrations[grammar.name] = {
        libraryPath: fromEngine.libraryPath,
        extensions: grammar.extensions,
        languageSymbol: grammar.languageSymbol,
        expandoChar: grammar.expandoChar,
      };
      // A copy of a packaged grammar reads what its package reads too (`hxx` for C++), so a file is
      // read with the same grammar with the engine as without it.
      const extensions = [...grammar.extensions, ...(packaged?.extensions ?? []), ...(packaged?.extraExtensions ?? [])];
      pending.push({
        id: grammar.name,
        napiLang: grammar.name,
        extensions: [...new Set(extensions)],
        expandoChar: patternCheckExpando(grammar.expandoChar),
        searchedByDefault: known.searchedByDefault,
        source: "engine",
        kinds: grammar.kinds,
      });
    }
  }
  const outcome = (): LoadedGrammars => ({
    available,
    failed,
    missing,
    replacedByEngine,
    ...(engineMissing === undefined ? {} : { engineMissing }),
  });
  if (pending.length === 0) return outcome();

  try {
    napi().registerDynamicLanguage(registrations);
  } catch (error) {
    for (const info of pending)
      failed.set(info.id, `registration failed: ${error instanceof Error ? error.message : String(error)}`);
    return outcome();
  }
  // A second registerDynamicLanguage call is silently ignored (research astgrep.md §0.2): if the host
  // registered grammars before us, ours are missing. A probe parse tells which ones really work.
  for (const info of pending) {
    try {
      napi().parse(info.napiLang, "");
      available.set(info.id, info);
    } catch {
      failed.set(
        info.id,
        "napi does not know this grammar: registerDynamicLanguage was already called in this process by other code, and napi honours only the first call.",
      );
    }
  }
  registerEngineGrammars(
    pending
      .filter((info) => available.has(info.id) && info.source !== "engine")
      .map((info) => {
        const { libraryPath, extensions, languageSymbol, expandoChar } = registrations[info.id]!;
        return {
          name: info.napiLang,
          libraryPath,
          extensions,
          ...(languageSymbol === undefined ? {} : { languageSymbol }),
          ...(expandoChar === undefined ? {} : { expandoChar }),
        };
      }),
  );
  return outcome();
}

const builtinIds = new Set(builtinGrammars.map((info) => info.id));
const engineIds = new Set(engineGrammars.map((grammar) => grammar.id));
const knownGrammars = new Map(packagedGrammars.map((grammar) => [grammar.id, grammar]));

function invalidChoice(message: string): ToolError {
  return new ToolError({ code: "invalid_input", message });
}

function wantedGrammar(choice: LanguageChoice): WantedGrammar | undefined {
  const name = typeof choice === "string" ? choice : choice.id;
  if (typeof name !== "string" || name.trim() === "") {
    throw invalidChoice(
      `An entry of \`createAstGrepParser({ languages })\` has no id (\`${JSON.stringify(name)}\`). Give a grammar id such as \`"python"\`, or \`{ id, grammar }\`.`,
    );
  }
  const id = canonicalLanguageId(name);
  const known = knownGrammars.get(id);
  if (typeof choice === "string") {
    // The built-in grammars and the engine's are offered to every parser; naming one changes nothing.
    if (builtinIds.has(id) || engineIds.has(id)) return undefined;
    if (known === undefined) {
      throw invalidChoice(
        `Unknown grammar \`${choice}\` in \`createAstGrepParser({ languages })\`. Name one of: ${[...knownGrammars.keys(), ...engineIds].sort().join(", ")}; or pass \`{ id, grammar }\` with a grammar module you imported.`,
      );
    }
    return { grammar: known };
  }
  if (builtinIds.has(id)) {
    throw invalidChoice(
      `\`${id}\` is built into @ast-grep/napi and always available; leave its \`{ id, grammar }\` out of \`createAstGrepParser({ languages })\`.`,
    );
  }
  const grammar = known ?? { id, extensions: [], searchedByDefault: true };
  return {
    grammar:
      choice.searchedByDefault === undefined ? grammar : { ...grammar, searchedByDefault: choice.searchedByDefault },
    module: choice.grammar,
  };
}

function withExtensionIndex(table: Omit<LanguageTable, "byExtension">): LanguageTable {
  const byExtension = new Map<string, LanguageInfo>();
  for (const info of table.available.values()) {
    for (const extension of info.extensions) if (!byExtension.has(extension)) byExtension.set(extension, info);
  }
  return { ...table, byExtension };
}

function viewOf(
  loaded: LoadedGrammars,
  selected: ReadonlySet<string> | undefined,
  own: readonly WantedGrammar[],
): LanguageTable {
  const available = new Map<string, LanguageInfo>();
  const unavailable: UnavailableLanguage[] = [];
  const installable: InstallableLanguage[] = [];
  const notSelected: string[] = [];
  const replacedByEngine = [...loaded.replacedByEngine];
  for (const info of builtinGrammars) available.set(info.id, loaded.available.get(info.id) ?? info);
  const ids = [
    ...packagedGrammars.map((grammar) => grammar.id),
    ...own.map((wanted) => wanted.grammar.id).filter((id) => !knownGrammars.has(id)),
  ];
  for (const id of ids) {
    const info = loaded.available.get(id);
    const isSelected = selected === undefined || selected.has(id);
    // The engine's copy of a packaged grammar is offered to every parser, as napi's grammars are.
    if (info?.source === "engine") available.set(id, info);
    else if (loaded.missing.has(id))
      installable.push({
        id,
        packageName: grammarPackageName(id),
        ...(loaded.engineMissing !== undefined && isPackagedGrammarInEngine(id)
          ? { engineMissing: loaded.engineMissing }
          : {}),
      });
    else if (!isSelected) notSelected.push(id);
    else if (info !== undefined) available.set(id, info);
    else {
      unavailable.push({
        id,
        reason:
          loaded.failed.get(id) ??
          "it was not registered: napi registers grammars once per process, and the grammars of this process were registered before a parser asked for this one; name it in the `languages` of the first parser created.",
      });
    }
  }
  const handedIn = new Set(own.filter((wanted) => wanted.module !== undefined).map((wanted) => wanted.grammar.id));
  for (const { id } of engineGrammars) {
    if (handedIn.has(id)) continue; // This parser's own module, offered above.
    const info = loaded.available.get(id);
    if (info?.source === "engine") available.set(id, info);
    else if (loaded.engineMissing !== undefined)
      unavailable.push({
        id,
        reason: `it is built into the native engine (@runbound/astgrep-engine), which is not loaded here: ${loaded.engineMissing}.`,
        needsEngine: true,
      });
    else
      unavailable.push({
        id,
        reason:
          info === undefined
            ? (loaded.failed.get(id) ?? "the native engine does not offer it.")
            : "another parser of this process handed in its own grammar module for it, which replaced the native engine's; name that module in this parser's `languages` too.",
      });
  }
  return withExtensionIndex({ available, unavailable, installable, notSelected, replacedByEngine });
}

/**
 * The grammars of one parser: the built-in ones, the native engine's (HCL, Nix, Solidity, Zig, and
 * its copies of C++, Bash, Rust, C and PHP, when the engine loads), plus every other known
 * `@ast-grep/lang-*` package that resolves (see {@link grammarSearchPaths}), or only those `choices`
 * name. The grammars are loaded
 * and registered lazily on the first call of any parser's table, once per process, covering what
 * every parser created until then asked for. `searchPaths` replaces where packages are looked for,
 * when this selection is the one that loads them (tests pass a scratch project).
 * @throws ToolError `invalid_input` for a choice naming no known grammar.
 */
export function selectLanguages(
  choices?: readonly LanguageChoice[],
  searchPaths?: readonly string[],
): () => LanguageTable {
  const own =
    choices === undefined
      ? packagedGrammars.map((grammar): WantedGrammar => ({ grammar }))
      : choices.flatMap((choice) => wantedGrammar(choice) ?? []);
  const selected = choices === undefined ? undefined : new Set(own.map((wanted) => wanted.grammar.id));
  const grammars = processGrammars();
  if (grammars.loaded === undefined) {
    for (const wanted of own)
      if (!grammars.wanted.has(wanted.grammar.id) || wanted.module !== undefined)
        grammars.wanted.set(wanted.grammar.id, wanted);
  }
  let table: LanguageTable | undefined;
  return () => {
    if (table !== undefined) return table;
    grammars.loaded ??= loadGrammars(grammars.wanted, searchPaths ?? grammarSearchPaths());
    table = viewOf(grammars.loaded, selected, own);
    return table;
  };
}

let defaultSelection: (() => LanguageTable) | undefined;

/** The grammars of a parser created without `languages` (loaded on first use). */
export function languageTable(): LanguageTable {
  defaultSelection ??= selectLanguages();
  return defaultSelection();
}

/**
 * The built-in language with this id or alias, if it is one. Every parser offers the built-in
 * languages, so a search in one of them needs no table: the dynamic grammars (about 80 ms of
 * loading and registering on the main thread, before any file is read) wait for a search that needs them.
 */
export function builtinLanguage(id: string): LanguageInfo | undefined {
  const canonical = canonicalLanguageId(id);
  return builtinGrammars.find((info) => info.id === canonical);
}

/** The language with this id or a common alias (`ts`, `py`, `c++` …), case-insensitive, if the table offers it. */
export function findLanguage(table: LanguageTable, id: string): LanguageInfo | undefined {
  return table.available.get(canonicalLanguageId(id));
}

/** The language a file is read with, from its extension. */
export function languageOfPath(table: LanguageTable, path: string): LanguageInfo | undefined {
  const extension = extensionOf(path);
  return extension === undefined ? undefined : table.byExtension.get(extension);
}

/** A file name's lowercase extension, without the dot; none for a dotfile such as `.bashrc`. */
export function extensionOf(path: string): string | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? undefined : name.slice(dot + 1).toLowerCase();
}

/** The ids of every available language, sorted, for messages. */
export function availableLanguageIds(table: LanguageTable): string[] {
  return [...table.available.keys()].sort();
}
