/** A grammar published as an `@ast-grep/lang-<id>` package, which the parser registers when it is installed. */
export interface PackagedGrammar {
  id: string;
  /** What the package reads, for naming the package to install when a file of that kind is searched. */
  extensions: readonly string[];
  /** Extensions added to the package's own list (lang-python lists only `py`). */
  extraExtensions?: readonly string[];
  /** Extensions this grammar reads only when asked by id, because a built-in grammar owns them. */
  ownedElsewhere?: readonly string[];
  searchedByDefault: boolean;
}

/** Every `@ast-grep/lang-*` package this parser knows, in the order their extensions are claimed. */
export const packagedGrammars: readonly PackagedGrammar[] = [
  { id: "python", extensions: ["py"], extraExtensions: ["pyi"], searchedByDefault: true },
  { id: "go", extensions: ["go"], searchedByDefault: true },
  { id: "rust", extensions: ["rs"], searchedByDefault: true },
  { id: "c", extensions: ["c", "h"], searchedByDefault: true },
  {
    id: "cpp",
    extensions: ["cc", "hpp", "cpp", "hh", "cxx", "cu", "ino"],
    extraExtensions: ["c++", "h++", "hxx"],
    searchedByDefault: true,
  },
  { id: "java", extensions: ["java"], searchedByDefault: true },
  { id: "kotlin", extensions: ["kt", "ktm", "kts"], searchedByDefault: true },
  { id: "swift", extensions: ["swift"], searchedByDefault: true },
  { id: "csharp", extensions: ["cs"], searchedByDefault: true },
  { id: "ruby", extensions: ["rb", "rbw", "gemspec"], searchedByDefault: true },
  { id: "php", extensions: ["php"], searchedByDefault: true },
  { id: "scala", extensions: ["scala", "sc", "sbt"], searchedByDefault: true },
  {
    id: "bash",
    extensions: ["bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"],
    searchedByDefault: true,
  },
  { id: "lua", extensions: ["lua"], searchedByDefault: true },
  { id: "elixir", extensions: ["ex", "exs"], searchedByDefault: true },
  { id: "dart", extensions: ["dart"], searchedByDefault: true },
  { id: "haskell", extensions: ["hs"], searchedByDefault: true },
  { id: "json", extensions: ["json"], searchedByDefault: false },
  { id: "yaml", extensions: ["yaml", "yml"], searchedByDefault: false },
  { id: "toml", extensions: ["toml"], searchedByDefault: false },
  { id: "sql", extensions: ["sql"], searchedByDefault: false },
  { id: "markdown", extensions: ["md"], searchedByDefault: false },
  // Angular templates are .html files; the built-in html grammar keeps the extension, angular is opt-in by id.
  { id: "angular", extensions: ["html"], ownedElsewhere: ["html"], searchedByDefault: false },
];

/**
 * A grammar the ast-grep CLI has built in and no `@ast-grep/lang-*` package provides: compiled into
 * the native engine (@runbound/astgrep-engine), which also hands it to napi, so it is searchable only
 * where the engine loads.
 */
export interface EngineGrammar {
  id: string;
  /** What it reads, as ast-grep-language declares them; the loaded engine's own list is the one used. */
  extensions: readonly string[];
  searchedByDefault: boolean;
}

/** Every grammar only the native engine provides (src/engine_grammars.rs in @runbound/astgrep-engine). */
export const engineGrammars: readonly EngineGrammar[] = [
  // Terraform and Nomad configuration: left out of a search without `language`, like the data formats.
  { id: "hcl", extensions: ["hcl", "nomad", "tf", "tfvars", "workflow"], searchedByDefault: false },
  { id: "nix", extensions: ["nix"], searchedByDefault: true },
  { id: "solidity", extensions: ["sol"], searchedByDefault: true },
  { id: "zig", extensions: ["zig"], searchedByDefault: true },
];

/**
 * The packaged grammars the native engine also has built in, at the versions the ast-grep CLI 0.51.1
 * locks: C++, Bash, Rust and C, whose `@ast-grep/lang-*` packages weigh most in an install (34, 17,
 * 12 and 8 MB, mostly C sources and other platforms' prebuilds), and PHP, whose package is another
 * grammar than the CLI's: `@ast-grep/lang-php` is tree-sitter-php's full grammar (text up to `<?php`,
 * so a file without the tag has no code in it), the CLI's its `php_only`, which reads every file as
 * code. Where the engine loads, its copy is used and an installed package is not registered: the copy
 * is the CLI's grammar, and a package may be older (`@ast-grep/lang-rust` 0.0.7 is tree-sitter-rust
 * 0.23.2, the CLI's is 0.24.2; `lang-c` 0.0.6 is tree-sitter-c 0.24.1 against 0.24.2). Without the
 * engine, the package is used when installed.
 */
export const packagedGrammarsInEngine: readonly string[] = ["cpp", "bash", "rust", "c", "php"];

/** Whether the native engine has a copy of this packaged grammar built in. */
export function isPackagedGrammarInEngine(id: string): boolean {
  return packagedGrammarsInEngine.includes(id);
}

/** Whether only the native engine provides this grammar (no `@ast-grep/lang-*` package does). */
export function isEngineGrammar(id: string): boolean {
  return engineGrammars.some((candidate) => candidate.id === id);
}

/** The npm package that holds a packaged grammar. */
export function grammarPackageName(id: string): string {
  return `@ast-grep/lang-${id}`;
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
  sol: "solidity",
  tf: "hcl",
  terraform: "hcl",
};

/** The id a language name or common alias (`ts`, `py`, `c++` …) stands for, case-insensitive. */
export function canonicalLanguageId(name: string): string {
  const key = name.trim().toLowerCase();
  return aliases[key] ?? key;
}
