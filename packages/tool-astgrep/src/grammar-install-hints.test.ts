import { resultErrorCode, resultText, ToolError } from "@runbound/tool-kit";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createParserRun } from "./__fixtures__/create-parser-run.js";
import { createGrammarHostProject, type GrammarHostProject } from "./__fixtures__/grammar-host-project.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { assertGrammarForFile, describeLanguageTable, offeredLanguage } from "./grammar-availability.js";
import { astGrepPlugin } from "./index.js";
import { selectLanguages, type LanguageTable } from "./language-registry.js";

// This file's process finds grammar packages only in a scratch project holding lang-python, as a
// host that installed @runbound/tool-astgrep and @ast-grep/lang-python alone would.
let project: GrammarHostProject;
let table: LanguageTable;
beforeAll(() => {
  project = createGrammarHostProject(["@ast-grep/lang-python"]);
  table = selectLanguages(undefined, [project.entry])();
});
afterAll(() => project.cleanup());

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

describe("grammars that are not installed", () => {
  it("offers the built-in grammars and the installed one, and lists every other known grammar as installable", () => {
    expect([...table.available.keys()]).toEqual(["typescript", "tsx", "javascript", "html", "css", "python"]);
    expect(table.installable).toHaveLength(22);
    expect(table.installable).toContainEqual({ id: "go", packageName: "@ast-grep/lang-go" });
    expect(table.installable.map((entry) => entry.id)).not.toContain("python");
    expect(table.unavailable).toEqual([]);
    expect(table.notSelected).toEqual([]);
    expect(table.byExtension.get("pyi")?.id).toBe("python");
    expect(table.byExtension.has("go")).toBe(false);
  });

  it("names the package to install when a missing grammar is asked for by id or alias", () => {
    const error = thrown(() => offeredLanguage(table, "golang"));
    expect(ToolError.isInstance(error) && error.code).toBe("unavailable");
    expect((error as Error).message).toBe(
      "The `go` grammar is not installed. Install it next to @runbound/tool-astgrep with `npm install @ast-grep/lang-go` and start the program again; until then search one of: css, html, javascript, python, tsx, typescript.",
    );
    expect(offeredLanguage(table, "PY")?.id).toBe("python");
    expect(offeredLanguage(table, "cobol")).toBeUndefined();
  });

  it("names the package for a single file of a missing grammar, not for other files or directories", async () => {
    workspace = await createTempWorkspace({ "main.go": "package main\n", "notes.txt": "hello\n", "lib.hpp": "int f();\n" });
    expect(() => assertGrammarForFile(table, join(workspace!.dir, "main.go"))).toThrow("`npm install @ast-grep/lang-go`");
    expect(() => assertGrammarForFile(table, join(workspace!.dir, "lib.hpp"))).toThrow("`npm install @ast-grep/lang-cpp`");
    expect(() => assertGrammarForFile(table, join(workspace!.dir, "notes.txt"))).not.toThrow();
    expect(() => assertGrammarForFile(table, join(workspace!.dir, "absent.go"))).not.toThrow();
    mkdirSync(join(workspace.dir, "vendor.go"));
    expect(() => assertGrammarForFile(table, join(workspace!.dir, "vendor.go"))).not.toThrow();
    expect(() => assertGrammarForFile(table, join(workspace!.dir, "app.py"))).not.toThrow();
  });

  it("answers ast_grep with the package to install, and still searches the grammars it has", async () => {
    workspace = await createTempWorkspace({ "main.go": 'package main\nfunc main() { fmt.Println("a") }\n', "app.py": "print(1)\n" });
    const run = createParserRun(workspace.dir);
    const byId = await run.call("ast_grep", { pattern: "fmt.Println($$$A)", language: "go" });
    expect(resultErrorCode(byId)).toBe("unavailable");
    expect(resultText(byId)).toContain("`npm install @ast-grep/lang-go`");
    const byFile = await run.call("ast_grep", { pattern: "fmt.Println($$$A)", path: "main.go" });
    expect(resultErrorCode(byFile)).toBe("unavailable");
    expect(resultText(byFile)).toContain("`npm install @ast-grep/lang-go`");
    const python = await run.call("ast_grep", { pattern: "print($A)", path: "app.py" });
    expect(python.isError).not.toBe(true);
    expect(resultText(python)).toContain("app.py:1");
  });

  it("lists installed and installable grammars in the parser's status line", async () => {
    expect(describeLanguageTable(table)).toBe(
      `6 grammars: typescript, tsx, javascript, html, css, python; installable: ${table.installable.map((entry) => entry.id).join(", ")} (npm install @ast-grep/lang-<id>)`,
    );
    const provider = astGrepPlugin.resourceProviders[0]!;
    const instance = await provider.create({ workdir: project.dir, signal: new AbortController().signal });
    try {
      expect(await instance.describe?.()).toMatch(/^6 grammars: typescript, tsx, javascript, html, css, python; installable: go, rust, c, cpp, /);
    } finally {
      await instance.dispose?.();
    }
  });
});
