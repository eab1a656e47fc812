// Its own file: the engine's grammar registry can be filled once per process, and vitest runs each
// test file in its own worker.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { DynamicGrammar, QueryInput } from "./engine-types.js";
import { builtEngine } from "./test-support/built-engine.js";

const engine = builtEngine();

/** What @ast-grep/lang-python exports; reading `libraryPath` locates its prebuilt parser. */
interface GrammarPackage {
  readonly libraryPath: string;
  readonly extensions: string[];
  readonly languageSymbol?: string;
  readonly expandoChar?: string;
}

function pythonGrammar(): DynamicGrammar {
  const python = createRequire(import.meta.url)("@ast-grep/lang-python") as GrammarPackage;
  // @ast-grep/setup-lang logs where it found the prebuild with console.debug on every access.
  const debug = console.debug;
  console.debug = () => {};
  try {
    return {
      name: "python",
      libraryPath: python.libraryPath,
      languageSymbol: python.languageSymbol,
      expandoChar: python.expandoChar,
      extensions: [...python.extensions],
    };
  } finally {
    console.debug = debug;
  }
}

function query(pattern: string, options: Partial<QueryInput> = {}): QueryInput {
  return { language: "python", config: { rule: { pattern } }, single: [], multi: [], rewriting: false, ...options };
}

const source = "def greet(name):\n    return say(f'héllo {name}')\n\n\ndef twice(x):\n    say(x)\n    return say(x)\n";

describe.runIf(engine !== undefined)("registerDynamicLanguages", () => {
  it("refuses a grammar whose expando character is not one character, naming it, without using up the registration", () => {
    expect(() => engine!.registerDynamicLanguages([{ ...pythonGrammar(), expandoChar: "µµ" }])).toThrow(
      "The expando character of grammar `python` is `µµ`; give exactly one character.",
    );
  });

  it("searches python sources once @ast-grep/lang-python is registered, and refuses a second registration", async () => {
    const store = new engine!.TreeStore();
    await expect(async () => store.searchSources(query("say($X)"), [Buffer.from(source)], [0], false)).rejects.toThrow(
      /no grammar `python`/,
    );

    engine!.registerDynamicLanguages([pythonGrammar()]);

    const { results } = await store.searchSources(
      query("say($X)", { single: ["X"] }),
      [Buffer.from(source)],
      [1],
      false,
    );
    expect(results[0]!.count).toBe(3);
    expect(results[0]!.errors).toBeUndefined();
    const start = source.indexOf("say(");
    expect(results[0]!.matches).toEqual([
      {
        line: 1,
        column: 11,
        endLine: 1,
        start,
        end: source.indexOf(")\n") + 1,
        text: "say(f'héllo {name}')",
        captures: [{ name: "X", text: "f'héllo {name}'", start: start + 4, end: source.indexOf(")\n"), multi: false }],
      },
    ]);
    // A pattern with python's own syntax: the metavariables go through the package's expando character.
    const definitions = await store.searchSources(
      query("def $F($$$ARGS):\n    $$$BODY", { single: ["F"] }),
      [Buffer.from(source)],
      [2],
      false,
    );
    expect(definitions.results[0]!.count).toBe(2);
    expect(definitions.results[0]!.matches.map((match) => match.captures[0]!.text)).toEqual(["greet", "twice"]);

    expect(() => engine!.registerDynamicLanguages([pythonGrammar()])).toThrow(
      "Dynamic grammars were already registered in this process; they can be registered once.",
    );
  });
});
