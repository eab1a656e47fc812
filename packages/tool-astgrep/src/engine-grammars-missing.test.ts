// Its own file: the grammars are registered once per process, and here that happens with the native
// engine turned off, as a host without @runbound/astgrep-engine (or without a binary for its platform)
// registers them. HCL, Nix, Solidity and Zig then need the engine, and every answer says so and why.
import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";
import { describeLanguageTable } from "./grammar-availability.js";
import { astGrepPlugin, createAstGrepParser } from "./index.js";

process.env["RUNBOUND_ASTGREP_ENGINE"] = "napi";
delete (globalThis as Record<symbol, unknown>)[Symbol.for("runbound.tool-astgrep.grammars")];
const runs = parserRunsInTempWorkspaces();
const why = "RUNBOUND_ASTGREP_ENGINE=napi turns it off; unset it to load the engine";

describe("the native engine's grammars without the engine", () => {
  it("refuses a search in one by id or alias, naming the grammar, the engine it needs and why the engine is missing", async () => {
    const run = await runs.runIn({ "main.tf": 'resource "aws_instance" "web" {}\n' });
    for (const language of ["hcl", "terraform", "Solidity", "sol", "nix", "zig"]) {
      const result = await run.call("ast_grep", { pattern: "$A = $B", language });
      expect(resultErrorCode(result)).toBe("unavailable");
      expect(resultText(result)).toMatch(
        /^Error \(unavailable\): The `(hcl|solidity|nix|zig)` grammar cannot be used here: it is built into the native engine \(@runbound\/astgrep-engine\), which is not loaded here: /,
      );
      expect(resultText(result)).toContain(`${why}. Until then search one of: `);
    }
    const edit = await run.call("ast_edit", { pattern: "$A = $B", rewrite: "$B = $A", language: "hcl" });
    expect(resultErrorCode(edit)).toBe("unavailable");
    expect(resultText(edit)).toContain("The `hcl` grammar cannot be used here: it is built into the native engine");
  });

  it("refuses a single file of one without `language`, and counts a directory's files of one as not searched, saying why", async () => {
    const run = await runs.runIn({
      "main.tf": 'resource "aws_instance" "web" {}\n',
      "Token.sol": "contract Token { function f() public {} }\n",
      "app.ts": "f(1);\n",
    });
    const file = await run.call("ast_grep", { pattern: "resource $T $N $B", path: "main.tf" });
    expect(resultErrorCode(file)).toBe("unavailable");
    expect(resultText(file)).toContain("The `hcl` grammar cannot be used here: it is built into the native engine");
    const directory = await run.call("ast_grep", { pattern: "f($A)" });
    expect(directory.structured?.["total"], resultText(directory)).toBe(1);
    expect(resultText(directory)).toContain(
      "not searched: 1 solidity file (the solidity grammar is built into the native engine, which is not loaded here)",
    );
    expect(directory.structured?.["not_searched_grammars"]).toEqual([
      { language: "solidity", files: 1, leftOut: false },
    ]);
  });

  it("searches C++, Bash, Rust, C and PHP with their @ast-grep/lang-* packages instead of the engine's copies", async () => {
    const table = createAstGrepParser().languages();
    for (const id of ["cpp", "bash", "rust", "c", "php"]) expect(table.available.get(id)?.source, id).toBe("package");
    expect(table.replacedByEngine).toEqual([]);
    expect(describeLanguageTable(table)).not.toContain("built into the native engine (their");
    const run = await runs.runIn({ "main.cpp": "int main() { f(1); f(2); }\n", "run.sh": "echo hi\n" });
    const cpp = await run.call("ast_grep", { pattern: "f($A)", path: "main.cpp" });
    expect(cpp.structured?.["total"], resultText(cpp)).toBe(2);
    const bash = await run.call("ast_grep", { pattern: "echo $$$ARGS", language: "bash" });
    expect(bash.structured?.["total"], resultText(bash)).toBe(1);
  });

  it("says in the parser's status which grammars are unavailable without the engine, and why", async () => {
    const table = createAstGrepParser().languages();
    expect(table.unavailable.filter((entry) => entry.needsEngine === true).map((entry) => entry.id)).toEqual([
      "hcl",
      "nix",
      "solidity",
      "zig",
    ]);
    const status = describeLanguageTable(table);
    expect(status).toMatch(/^\d+ grammars — built into @ast-grep\/napi: typescript, tsx, javascript, html, css; /);
    expect(status).not.toContain("built into the native engine (unavailable without it)");
    expect(status).toContain(
      `; unavailable without the native engine: hcl, nix, solidity, zig (it is built into the native engine (@runbound/astgrep-engine), which is not loaded here: ${why}.)`,
    );
    const instance = await astGrepPlugin.resourceProviders[0]!.create({
      workdir: tmpdir(),
      signal: new AbortController().signal,
    });
    try {
      expect(await instance.describe?.()).toContain("unavailable without the native engine: hcl, nix, solidity, zig");
    } finally {
      await instance.dispose?.();
    }
  });
});
