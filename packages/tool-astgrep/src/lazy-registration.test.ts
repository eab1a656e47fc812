import { Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import type { GrammarModule } from "./grammar-packages.js";
import { AstGrepParser, astGrepPlugin, createAstGrepParser, type AstGrepParserInstance } from "./index.js";

// napi registers grammars once per process; this file's first search is in a built-in language, so
// the registration must still be open afterwards. (A runner re-running this file in one thread keeps
// the global object; start from nothing, as a fresh process does.)
delete (globalThis as Record<symbol, unknown>)[Symbol.for("runbound.tool-astgrep.grammars")];
const require = createRequire(import.meta.url);

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

async function search(parser: AstGrepParserInstance, files: Record<string, string>, input: Record<string, unknown>) {
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

describe("registering the dynamic grammars", () => {
  it("waits past searches in built-in languages, so a parser created after them still gets its own grammar", async () => {
    const first = await search(
      createAstGrepParser(),
      { "a.ts": "const a = f(1);\n" },
      { pattern: "f($A)", language: "ts" },
    );
    expect(first.structured).toMatchObject({ total: 1 });
    const jsx = await search(
      createAstGrepParser(),
      { "b.jsx": "g(<div />);\n" },
      { pattern: "g($A)", language: "javascript" },
    );
    expect(jsx.structured).toMatchObject({ total: 1 });

    // Created after two searches: with the grammars registered at the first search, `gotemplate`
    // would be "not registered" here.
    const late = createAstGrepParser({
      languages: [{ id: "gotemplate", grammar: require("@ast-grep/lang-go") as GrammarModule }],
    });
    // (The native engine's grammars are unavailable in the package's napi pass; they need no registration order.)
    expect(late.languages().unavailable.filter((entry) => entry.needsEngine !== true)).toEqual([]);
    expect(late.language("gotemplate")?.extensions).toContain("go");
    const go = await search(
      late,
      { "main.go": "package main\nfunc main() { println(1) }\n" },
      { pattern: "println($A)", language: "gotemplate" },
    );
    expect(go.structured).toMatchObject({ total: 1 });
  });
});
