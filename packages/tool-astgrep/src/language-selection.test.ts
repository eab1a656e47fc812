import { resultErrorCode, resultText, ToolError, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import type { GrammarModule } from "./grammar-packages.js";
import { AstGrepParser, astGrepPlugin, createAstGrepParser, type AstGrepParserInstance } from "./index.js";

const require = createRequire(import.meta.url);
const goModule = require("@ast-grep/lang-go") as GrammarModule;

// Created before this process's first search, so the one registration covers what they all name.
const pythonOnly = createAstGrepParser({ languages: ["py"] });
const rustByModule = createAstGrepParser({ languages: [{ id: "rust", grammar: require("@ast-grep/lang-rust") as GrammarModule }] });
const customId = createAstGrepParser({ languages: [{ id: "gotemplate", grammar: goModule, searchedByDefault: false }] });
const brokenModule = createAstGrepParser({ languages: [{ id: "kotlin", grammar: { extensions: ["kt"] } as unknown as GrammarModule }] });

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
  const run = createFakeRun({ plugins: [astGrepPlugin], resources: [[AstGrepParser, parser], [Workdir, workspace.dir]] });
  return run.call("ast_grep", input);
}

describe("createAstGrepParser({ languages })", () => {
  it("offers the built-in grammars and only the named ones, and says the others are installed but left out", () => {
    const table = pythonOnly.languages();
    expect([...table.available.keys()]).toEqual(["typescript", "tsx", "javascript", "html", "css", "python"]);
    expect(table.notSelected).toHaveLength(22);
    expect(table.notSelected).toContain("go");
    expect(table.installable).toEqual([]);
    const error = thrown(() => pythonOnly.language("go"));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      'The `go` grammar is installed but this parser leaves it out: its `languages` setting does not name it. Add `"go"` to `createAstGrepParser({ languages })`, or search one of: css, html, javascript, python, tsx, typescript.',
    );
  });

  it("answers a search in a grammar the setting leaves out with how to add it", async () => {
    const result = await callIn(pythonOnly, { "main.go": "package main\n" }, { pattern: "package $P", language: "go" });
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toContain('Add `"go"` to `createAstGrepParser({ languages })`');
  });

  it("registers a grammar module the host imported, under a known or a new id", async () => {
    expect(rustByModule.language("rust")?.extensions).toEqual(["rs"]);
    const rust = await callIn(rustByModule, { "lib.rs": "fn main() { let x = 1; }\n" }, { pattern: "let $X = $V;" });
    expect(resultText(rust)).toContain("lib.rs:1");
    const custom = customId.language("gotemplate");
    expect(custom).toMatchObject({ id: "gotemplate", napiLang: "gotemplate", extensions: ["go"], searchedByDefault: false });
    const go = await callIn(customId, { "main.go": "package main\n" }, { pattern: "package $P", language: "gotemplate" });
    expect(resultText(go)).toContain("main.go:1");
  });

  it("reports a handed-in module that is not a grammar as unavailable, saying why", () => {
    expect(brokenModule.languages().unavailable).toEqual([
      { id: "kotlin", reason: "The grammar module given for `kotlin` does not export `libraryPath` and `extensions` as an @ast-grep/lang-* package does." },
    ]);
    const error = thrown(() => brokenModule.language("kt"));
    expect(error.code).toBe("unavailable");
    expect(error.message).toContain("The `kotlin` grammar cannot be used here: The grammar module given for `kotlin` does not export");
  });

  it("says a grammar named after the process's one registration cannot be added any more", () => {
    pythonOnly.languages();
    const late = createAstGrepParser({ languages: ["java", "rust"] }).languages();
    expect(late.available.has("rust")).toBe(true);
    expect(late.available.has("java")).toBe(false);
    expect(late.unavailable).toEqual([{ id: "java", reason: expect.stringContaining("napi registers grammars once per process") }]);
    const all = createAstGrepParser().languages();
    // A grammar handed in under a new id stays the grammar of the parser that named it.
    expect([...all.available.keys()]).toEqual(["typescript", "tsx", "javascript", "html", "css", "python", "rust"]);
    expect(all.unavailable.map((entry) => entry.id)).toContain("swift");
  });

  it("refuses an unknown grammar id, a built-in grammar handed in as a module, and an entry without an id", () => {
    const unknown = thrown(() => createAstGrepParser({ languages: ["pyton"] }));
    expect(unknown.code).toBe("invalid_input");
    expect(unknown.message).toMatch(/^Unknown grammar `pyton` in `createAstGrepParser\(\{ languages \}\)`\. Name one of: angular, bash, c, cpp, .*, yaml; or pass `\{ id, grammar \}`/);
    expect(thrown(() => createAstGrepParser({ languages: [{ id: "TS", grammar: goModule }] })).message).toBe(
      "`typescript` is built into @ast-grep/napi and always available; leave its `{ id, grammar }` out of `createAstGrepParser({ languages })`.",
    );
    expect(thrown(() => createAstGrepParser({ languages: [" "] })).message).toContain("has no id (`\" \"`)");
    expect(createAstGrepParser({ languages: ["typescript", "css"] }).language("css")?.id).toBe("css");
  });
});
