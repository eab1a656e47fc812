import { resultErrorCode, resultText, ToolError, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGrammarHostProject, type GrammarHostProject } from "./__fixtures__/grammar-host-project.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import {
  assertGrammarForFile,
  describeLanguageTable,
  missingGrammarOfPath,
  offeredLanguage,
} from "./grammar-availability.js";
import type { GrammarModule } from "./grammar-packages.js";
import { nativeEngine } from "./engine-binding.js";
import { AstGrepParser, astGrepPlugin, createAstGrepParser, type AstGrepParserInstance } from "./index.js";
import { selectLanguages, type LanguageTable } from "./language-registry.js";

// napi registers grammars once per process, so this one file drives that registration: the parsers
// below are created before the first search, and the search paths are those of a scratch project
// holding only lang-python and lang-java, as a host that installed @runbound/tool-astgrep and those
// two grammars would. (A test runner sharing one process across files, as mutation testing does,
// then sees the same registration on every run.)
// A runner that re-runs this file in the same thread (mutation testing) keeps the global object; the
// native registration survives anyway, but this file's parsers must load the grammars again.
delete (globalThis as Record<symbol, unknown>)[Symbol.for("runbound.tool-astgrep.grammars")];
const require = createRequire(import.meta.url);
const goModule = require("@ast-grep/lang-go") as GrammarModule;
const pythonOnly = createAstGrepParser({ languages: ["py"] });
const rustByModule = createAstGrepParser({
  languages: [{ id: "rust", grammar: require("@ast-grep/lang-rust") as GrammarModule }],
});
const customId = createAstGrepParser({
  languages: [{ id: "gotemplate", grammar: goModule, searchedByDefault: false }],
});
const brokenModule = createAstGrepParser({
  languages: [{ id: "kotlin", grammar: { extensions: ["kt"] } as unknown as GrammarModule }],
});

// The native engine's own grammars are offered by every parser where the engine loads; in the
// package's napi pass (RUNBOUND_ASTGREP_ENGINE=napi) they are unavailable, needing the engine.
const engineIds = ["hcl", "nix", "solidity", "zig"];
const engineLoaded = nativeEngine() !== undefined;
const fromEngine = engineLoaded ? engineIds : [];
// Its copies of packaged grammars (C++, Bash, Rust, C, PHP) too, in the catalog's order: the scratch
// project has none of their packages, and rust is handed in as a module, which wins over the copy.
const engineCopies = engineLoaded ? ["c", "cpp", "php", "bash"] : [];
const engineStatus = engineLoaded
  ? `; built into the native engine (their @ast-grep/lang-* packages without it): ${engineCopies.join(", ")}; built into the native engine (unavailable without it): ${engineIds.join(", ")}`
  : "";
const needEngineStatus = engineLoaded
  ? ""
  : `; unavailable without the native engine: ${engineIds.join(", ")} (it is built into the native engine (@runbound/astgrep-engine), which is not loaded here: RUNBOUND_ASTGREP_ENGINE=napi turns it off; unset it to load the engine.)`;
/** The grammars that failed for another reason than a missing engine. */
const failedOf = (table: LanguageTable) => table.unavailable.filter((entry) => entry.needsEngine !== true);
/** `search one of: …` with these ids besides the built-in and the engine's grammars. */
const searchable = (...ids: string[]) =>
  ["typescript", "tsx", "javascript", "html", "css", ...ids, ...engineCopies, ...fromEngine].sort().join(", ");

let project: GrammarHostProject;
beforeAll(() => {
  project = createGrammarHostProject(["@ast-grep/lang-python", "@ast-grep/lang-java"]);
  selectLanguages(["python"], [project.entry])();
});
afterAll(() => project.cleanup());

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

function thrown(action: () => unknown): ToolError {
  try {
    action();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the call to throw a ToolError");
}

async function callIn(parser: AstGrepParserInstance, files: Record<string, string>, input: Record<string, unknown>) {
  workspace = await createTempWorkspace(files);
  const run = createFakeRun({
    plugins: [astGrepPlugin],
    resources: [
      [AstGrepParser, parser],
      [Workdir, workspace.dir],
    ],
  });
  return run.call("ast_grep", input);
}

const missingIds = [
  "go",
  "c",
  "cpp",
  "swift",
  "csharp",
  "ruby",
  "php",
  "scala",
  "bash",
  "lua",
  "elixir",
  "dart",
  "haskell",
  "json",
  "yaml",
  "toml",
  "sql",
  "markdown",
  "angular",
].filter((id) => !engineCopies.includes(id));

describe("grammars that are not installed", () => {
  it("offers the built-in grammars and the registered ones, and lists every known grammar that did not resolve as installable", () => {
    const table = createAstGrepParser().languages();
    expect([...table.available.keys()]).toEqual([
      "typescript",
      "tsx",
      "javascript",
      "html",
      "css",
      "python",
      "rust",
      ...engineCopies,
      ...fromEngine,
    ]);
    expect(table.installable.map((entry) => entry.id)).toEqual(missingIds);
    if (engineLoaded) {
      expect(table.available.get("cpp")).toMatchObject({ source: "engine", expandoChar: "\u4e00" });
      expect(table.byExtension.get("hxx")?.id).toBe("cpp");
      expect(table.byExtension.get("h")?.id).toBe("c");
    }
    expect(table.installable).toContainEqual({ id: "go", packageName: "@ast-grep/lang-go" });
    expect(table.notSelected).toEqual([]);
    expect(table.byExtension.get("pyi")?.id).toBe("python");
    expect(table.byExtension.has("go")).toBe(false);
  });

  it("names the package to install when a missing grammar is asked for by id or alias", () => {
    const table = createAstGrepParser().languages();
    const error = thrown(() => offeredLanguage(table, "golang"));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe(
      `The \`go\` grammar is not installed. Install it next to @runbound/tool-astgrep with \`npm install @ast-grep/lang-go\` and start the program again; until then search one of: ${searchable("python", "rust")}.`,
    );
    expect(offeredLanguage(table, "PY")?.id).toBe("python");
    expect(offeredLanguage(table, "cobol")).toBeUndefined();
    if (engineLoaded) expect(offeredLanguage(table, "c++")?.source).toBe("engine");
    else
      expect(thrown(() => offeredLanguage(table, "c++")).message).toBe(
        `The \`cpp\` grammar is not installed. It is built into the native engine (@runbound/astgrep-engine), which is not loaded here (RUNBOUND_ASTGREP_ENGINE=napi turns it off; unset it to load the engine); without the engine it comes from its package. Install it next to @runbound/tool-astgrep with \`npm install @ast-grep/lang-cpp\` and start the program again; until then search one of: ${searchable("python", "rust")}.`,
      );
  });

  it("names the package for a single file of a missing grammar, not for other files or directories", async () => {
    const table = createAstGrepParser().languages();
    workspace = await createTempWorkspace({
      "main.go": "package main\n",
      "notes.txt": "hello\n",
      "lib.hpp": "int f();\n",
      "app.py": "x = 1\n",
    });
    const at = (name: string) => join(workspace!.dir, name);
    expect(() => assertGrammarForFile(table, at("main.go"))).toThrow("`npm install @ast-grep/lang-go`");
    if (engineLoaded) expect(() => assertGrammarForFile(table, at("lib.hpp"))).not.toThrow();
    else expect(() => assertGrammarForFile(table, at("lib.hpp"))).toThrow("`npm install @ast-grep/lang-cpp`");
    expect(() => assertGrammarForFile(table, at("notes.txt"))).not.toThrow();
    expect(() => assertGrammarForFile(table, at("absent.go"))).not.toThrow();
    mkdirSync(at("vendor.go"));
    expect(() => assertGrammarForFile(table, at("vendor.go"))).not.toThrow();
    expect(() => assertGrammarForFile(table, at("app.py"))).not.toThrow();
    const paths = [
      at("main.go"),
      at("lib.H"),
      at("x.pyi"),
      at("a.txt"),
      at(".sh"),
      at("run.sh"),
      at("w.hxx"),
      "dir.go\\.sh",
      "a.b/c",
    ];
    expect(paths.map((path) => missingGrammarOfPath(table, path))).toEqual([
      "go",
      engineLoaded ? undefined : "c",
      undefined,
      undefined,
      undefined,
      engineLoaded ? undefined : "bash",
      engineLoaded ? undefined : "cpp",
      undefined,
      undefined,
    ]);
  });

  it("answers ast_grep with the package to install, and still searches the grammars it has", async () => {
    const files = { "main.go": 'package main\nfunc main() { fmt.Println("a") }\n', "app.py": "print(1)\n" };
    const byId = await callIn(createAstGrepParser(), files, { pattern: "fmt.Println($$$A)", language: "go" });
    expect(resultErrorCode(byId)).toBe("unavailable");
    expect(resultText(byId)).toContain("`npm install @ast-grep/lang-go`");
    const byFile = await callIn(createAstGrepParser(), files, { pattern: "fmt.Println($$$A)", path: "main.go" });
    expect(resultErrorCode(byFile)).toBe("unavailable");
    expect(resultText(byFile)).toContain("`npm install @ast-grep/lang-go`");
    const python = await callIn(createAstGrepParser(), files, { pattern: "print($A)", path: "app.py" });
    expect(python.isError).not.toBe(true);
    expect(resultText(python)).toContain("app.py:1");
  });

  it("lists installed, installable and failed grammars in the parser's status line", async () => {
    const table = createAstGrepParser().languages();
    const installable = `installable: ${missingIds.join(", ")} (npm install @ast-grep/lang-<id>)`;
    const napiGrammars = "built into @ast-grep/napi: typescript, tsx, javascript, html, css";
    expect(describeLanguageTable(table)).toBe(
      `${7 + engineCopies.length + fromEngine.length} grammars — ${napiGrammars}; @ast-grep/lang-* packages: python; grammar modules handed in: rust${engineStatus}; ${installable}${needEngineStatus}; unavailable: ${failedOf(
        table,
      )
        .map((entry) => `${entry.id} (${entry.reason})`)
        .join("; ")}`,
    );
    expect(describeLanguageTable(pythonOnly.languages())).toBe(
      `${6 + engineCopies.length + fromEngine.length} grammars — ${napiGrammars}; @ast-grep/lang-* packages: python${engineStatus}; ${installable}; installed, not in this parser's languages: rust, java, kotlin${needEngineStatus}`,
    );
    const empty = {
      available: new Map(),
      unavailable: [],
      installable: [],
      notSelected: [],
      replacedByEngine: [],
      byExtension: new Map(),
    };
    expect(describeLanguageTable(empty)).toBe("0 grammars");
    const provider = astGrepPlugin.resourceProviders[0]!;
    const instance = await provider.create({ workdir: project.dir, signal: new AbortController().signal });
    try {
      expect(await instance.describe?.()).toContain(
        `${7 + engineCopies.length + fromEngine.length} grammars — ${napiGrammars}; @ast-grep/lang-* packages: python; grammar modules handed in: rust${engineStatus}; installable: go, ${engineLoaded ? "swift" : "c, cpp"}, `,
      );
    } finally {
      await instance.dispose?.();
    }
  });
});

describe("createAstGrepParser({ languages })", () => {
  it("offers the built-in grammars and only the named ones, and says the installed others are left out", async () => {
    const table = pythonOnly.languages();
    expect([...table.available.keys()]).toEqual([
      "typescript",
      "tsx",
      "javascript",
      "html",
      "css",
      "python",
      ...engineCopies,
      ...fromEngine,
    ]);
    // rust is another parser's module here, not the engine's copy: left out like any installed grammar.
    expect(table.notSelected).toEqual(["rust", "java", "kotlin"]);
    expect(failedOf(table)).toEqual([]);
    const error = thrown(() => pythonOnly.language("rs"));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      `The \`rust\` grammar is installed but this parser leaves it out: its \`languages\` setting does not name it. Add \`"rust"\` to \`createAstGrepParser({ languages })\`, or search one of: ${searchable("python")}.`,
    );
    const result = await callIn(
      pythonOnly,
      { "lib.rs": "fn main() {}\n" },
      { pattern: "fn $F() {}", language: "rust" },
    );
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toContain('Add `"rust"` to `createAstGrepParser({ languages })`');
  });

  it("registers a grammar module the host imported, under a known or a new id", async () => {
    expect(rustByModule.language("rust")?.extensions).toEqual(["rs"]);
    const rust = await callIn(rustByModule, { "lib.rs": "fn main() { let x = 1; }\n" }, { pattern: "let $X = $V;" });
    expect(resultText(rust)).toContain("lib.rs:1");
    expect(customId.language("gotemplate")).toMatchObject({
      id: "gotemplate",
      napiLang: "gotemplate",
      extensions: ["go"],
      searchedByDefault: false,
    });
    const go = await callIn(
      customId,
      { "main.go": "package main\n" },
      { pattern: "package $P", language: "gotemplate" },
    );
    expect(resultText(go)).toContain("main.go:1");
    // A grammar handed in under a new id stays the grammar of the parser that named it.
    expect(createAstGrepParser().languages().available.has("gotemplate")).toBe(false);
  });

  it("reports a handed-in module that is not a grammar as unavailable, saying why", () => {
    expect(failedOf(brokenModule.languages())).toEqual([
      {
        id: "kotlin",
        reason:
          "The grammar module given for `kotlin` does not export `libraryPath` and `extensions` as an @ast-grep/lang-* package does.",
      },
    ]);
    const error = thrown(() => brokenModule.language("kt"));
    expect(error.code).toBe("unavailable");
    expect(error.message).toContain(
      "The `kotlin` grammar cannot be used here: The grammar module given for `kotlin` does not export",
    );
  });

  it("says an installed grammar no parser named before the process's one registration cannot be added any more", () => {
    const late = createAstGrepParser({ languages: ["java", "rust"] }).languages();
    expect(late.available.has("rust")).toBe(true);
    expect(failedOf(late)).toEqual([
      { id: "java", reason: expect.stringContaining("napi registers grammars once per process") },
    ]);
    expect(failedOf(createAstGrepParser().languages()).map((entry) => entry.id)).toEqual(["java", "kotlin"]);
    const error = thrown(() => createAstGrepParser().language("java"));
    expect(error.code).toBe("unavailable");
    expect(error.message).toMatch(
      /^The `java` grammar cannot be used here: it was not registered: napi registers grammars once per process/,
    );
  });

  it("refuses an unknown grammar id, a built-in grammar handed in as a module, and an entry without an id", () => {
    const unknown = thrown(() => createAstGrepParser({ languages: ["pyton"] }));
    expect(unknown.code).toBe("invalid_input");
    expect(unknown.message).toMatch(
      /^Unknown grammar `pyton` in `createAstGrepParser\(\{ languages \}\)`\. Name one of: angular, bash, c, cpp, .*, yaml, zig; or pass `\{ id, grammar \}`/,
    );
    expect(thrown(() => createAstGrepParser({ languages: [{ id: "TS", grammar: goModule }] })).message).toBe(
      "`typescript` is built into @ast-grep/napi and always available; leave its `{ id, grammar }` out of `createAstGrepParser({ languages })`.",
    );
    expect(thrown(() => createAstGrepParser({ languages: [" "] })).message).toContain('has no id (`" "`)');
    expect(createAstGrepParser({ languages: ["typescript", "css"] }).language("css")?.id).toBe("css");
    // The engine's grammars are offered to every parser, like napi's: naming one changes nothing.
    expect(() => createAstGrepParser({ languages: ["hcl", "sol"] })).not.toThrow();
  });
});
