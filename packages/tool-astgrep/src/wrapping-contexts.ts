/**
 * A way of reading a pattern snippet: the snippet is placed between `prefix` and `suffix` and parsed
 * with the language's grammar. Wrapper names start with `__w`/`__W` so they never collide with user code.
 */
export interface WrappingContext {
  /** How the context is named in messages, e.g. `statement in a function body`. */
  name: string;
  prefix: string;
  suffix: string;
  /**
   * Text placed right after the snippet (a statement terminator such as `;`). The reading may then be
   * a node spanning the snippet plus the terminator, for grammars with no node spanning a bare call
   * (lang-dart has no call node: research astgrep.md §2).
   */
  terminator?: string;
  /** Only for one-line snippets: the wrapper indents the snippet, which a multi-line snippet would break. */
  singleLine?: boolean;
}

/** The contexts of one language, in order of preference, and the kinds that lose to any other reading. */
export interface LanguageContexts {
  contexts: readonly WrappingContext[];
  /**
   * Node kinds that are a grammatical accident rather than what a person means; a reading of such a kind
   * is used only when no context gives another reading (Go `fmt.Println(x)` read as a type conversion,
   * JavaScript `a: 1` read as a labeled statement).
   */
  weakKinds: readonly string[];
}

const asIs: WrappingContext = { name: "as-is", prefix: "", suffix: "" };

function functionBody(prefix: string, suffix: string, terminator = ";"): WrappingContext[] {
  return [
    { name: "statement in a function body", prefix, suffix },
    { name: `statement in a function body (\`${terminator}\` added)`, prefix, suffix, terminator },
  ];
}

const javascriptLike: LanguageContexts = {
  contexts: [
    asIs,
    ...functionBody("function __w() {\n", "\n}"),
    { name: "expression", prefix: "__w = ", suffix: ";" },
    { name: "object member", prefix: "__w = {\n", suffix: "\n};" },
    { name: "class member", prefix: "class __W {\n", suffix: "\n}" },
    { name: "function parameters", prefix: "function __w(", suffix: ") {}" },
    { name: "type", prefix: "type __W = ", suffix: ";" },
    { name: "interface member", prefix: "interface __W {\n", suffix: "\n}" },
  ],
  weakKinds: ["labeled_statement"],
};

const cLike = (memberPrefix: string, memberSuffix: string): LanguageContexts => ({
  contexts: [
    asIs,
    ...functionBody("void __w(void) {\n", "\n}"),
    { name: "expression", prefix: "void __w(void) { __w = ", suffix: "; }" },
    { name: "struct member", prefix: memberPrefix, suffix: memberSuffix },
  ],
  weakKinds: ["macro_type_specifier"],
});

const table: Readonly<Record<string, LanguageContexts>> = {
  typescript: javascriptLike,
  tsx: javascriptLike,
  javascript: javascriptLike,
  python: {
    contexts: [
      asIs,
      { name: "expression", prefix: "__w = ", suffix: "" },
      { name: "class member", prefix: "class __W:\n    ", suffix: "", singleLine: true },
      { name: "function parameters", prefix: "def __w(", suffix: "):\n    pass" },
    ],
    weakKinds: [],
  },
  go: {
    contexts: [
      asIs,
      { name: "statement in a function body", prefix: "func __w() {\n", suffix: "\n}" },
      { name: "expression", prefix: "var __w = ", suffix: "" },
      { name: "struct field", prefix: "type __W struct {\n", suffix: "\n}" },
      { name: "interface member", prefix: "type __W interface {\n", suffix: "\n}" },
      { name: "type", prefix: "type __W ", suffix: "" },
    ],
    // Go parses `pkg.F(x)` at top level as a type conversion; inside a body it is a call (ast-grep/ast-grep#646).
    weakKinds: ["type_conversion_expression"],
  },
  rust: {
    contexts: [
      asIs,
      ...functionBody("fn __w() {\n", "\n}"),
      { name: "expression", prefix: "fn __w() { let __w = ", suffix: "; }" },
      { name: "impl member", prefix: "impl __W {\n", suffix: "\n}" },
      { name: "struct field", prefix: "struct __W {\n", suffix: "\n}" },
      { name: "match arm", prefix: "fn __w() { match __w {\n", suffix: "\n} }" },
      { name: "type", prefix: "type __W = ", suffix: ";" },
    ],
    weakKinds: [],
  },
  c: cLike("struct __w {\n", "\n};"),
  cpp: {
    contexts: [
      ...cLike("struct __w {\n", "\n};").contexts,
      { name: "class member", prefix: "class __W {\n", suffix: "\n};" },
    ],
    weakKinds: ["macro_type_specifier"],
  },
  java: {
    contexts: [
      asIs,
      { name: "class member", prefix: "class __W {\n", suffix: "\n}" },
      ...functionBody("class __W { void __w() {\n", "\n} }"),
      { name: "expression", prefix: "class __W { Object __w = ", suffix: "; }" },
    ],
    weakKinds: [],
  },
  csharp: {
    contexts: [
      asIs,
      { name: "class member", prefix: "class __W {\n", suffix: "\n}" },
      ...functionBody("class __W { void __w() {\n", "\n} }"),
      { name: "expression", prefix: "class __W { object __w = ", suffix: "; }" },
    ],
    weakKinds: [],
  },
  kotlin: {
    contexts: [
      asIs,
      { name: "statement in a function body", prefix: "fun __w() {\n", suffix: "\n}" },
      { name: "class member", prefix: "class __W {\n", suffix: "\n}" },
      { name: "expression", prefix: "val __w = ", suffix: "" },
    ],
    weakKinds: [],
  },
  swift: {
    contexts: [
      asIs,
      { name: "statement in a function body", prefix: "func __w() {\n", suffix: "\n}" },
      { name: "class member", prefix: "class __W {\n", suffix: "\n}" },
      { name: "expression", prefix: "let __w = ", suffix: "" },
    ],
    weakKinds: [],
  },
  scala: {
    contexts: [
      asIs,
      { name: "statement in a function body", prefix: "def __w() = {\n", suffix: "\n}" },
      { name: "class member", prefix: "class __W {\n", suffix: "\n}" },
      { name: "expression", prefix: "val __w = ", suffix: "" },
    ],
    weakKinds: [],
  },
  dart: {
    contexts: [
      asIs,
      ...functionBody("void __w() {\n", "\n}"),
      { name: "class member", prefix: "class __W {\n", suffix: "\n}" },
      { name: "expression", prefix: "var __w = ", suffix: ";" },
    ],
    weakKinds: [],
  },
  php: {
    contexts: [
      { name: "as-is", prefix: "<?php\n", suffix: "" },
      { name: "statement (`;` added)", prefix: "<?php\n", suffix: "", terminator: ";" },
      { name: "class member", prefix: "<?php\nclass __W {\n", suffix: "\n}" },
      { name: "expression", prefix: "<?php\n$__w = ", suffix: ";" },
    ],
    weakKinds: [],
  },
  ruby: {
    contexts: [
      asIs,
      { name: "statement in a method body", prefix: "def __w\n", suffix: "\nend" },
      { name: "class member", prefix: "class W__\n", suffix: "\nend" },
    ],
    weakKinds: [],
  },
  lua: {
    contexts: [
      asIs,
      { name: "statement in a function body", prefix: "function __w()\n", suffix: "\nend" },
      { name: "expression", prefix: "local __w = ", suffix: "" },
    ],
    weakKinds: [],
  },
  bash: {
    contexts: [asIs, { name: "statement in a function body", prefix: "__w() {\n", suffix: "\n}" }],
    weakKinds: [],
  },
  elixir: {
    contexts: [asIs, { name: "statement in a function body", prefix: "def __w do\n", suffix: "\nend" }],
    weakKinds: [],
  },
  haskell: { contexts: [asIs, { name: "expression", prefix: "__w = ", suffix: "" }], weakKinds: [] },
  json: {
    contexts: [
      asIs,
      { name: "object member", prefix: "{", suffix: "}" },
      { name: "array element", prefix: "[", suffix: "]" },
    ],
    weakKinds: [],
  },
  css: {
    contexts: [
      asIs,
      { name: "declaration in a rule", prefix: "__w {\n", suffix: "\n}" },
      { name: "declaration in a rule (`;` added)", prefix: "__w {\n", suffix: "\n}", terminator: ";" },
    ],
    weakKinds: [],
  },
  // The native engine's grammars. Solidity reads only declarations at the top of a file (ast-grep's
  // reading of a Zig statement as-is, with an ERROR node, already matches the statement in a function).
  solidity: {
    contexts: [
      asIs,
      ...functionBody("contract __W {\nfunction __w() public {\n", "\n}\n}"),
      { name: "contract member", prefix: "contract __W {\n", suffix: "\n}" },
    ],
    weakKinds: [],
  },
  nix: { contexts: [asIs, { name: "binding in an attribute set", prefix: "{\n", suffix: "\n}" }], weakKinds: [] },
  hcl: { contexts: [asIs, { name: "expression", prefix: "__w = ", suffix: "" }], weakKinds: [] },
  sql: {
    contexts: [
      asIs,
      { name: "statement (`;` added)", prefix: "", suffix: "", terminator: ";" },
      { name: "expression", prefix: "SELECT ", suffix: ";" },
    ],
    weakKinds: [],
  },
};

/** The wrapping contexts of a language; languages without a list are read as-is only. */
export function wrappingContexts(languageId: string): LanguageContexts {
  return table[languageId] ?? { contexts: [asIs], weakKinds: [] };
}
