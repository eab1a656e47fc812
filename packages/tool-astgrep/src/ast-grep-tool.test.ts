import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "./index.js";

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

async function runIn(files: Record<string, string | Buffer>, settings: Parameters<typeof createAstGrepParser>[0] = {}) {
  workspace = await createTempWorkspace(files);
  return createFakeRun({
    plugins: [astGrepPlugin],
    resources: [
      [AstGrepParser, createAstGrepParser(settings)],
      [Workdir, workspace.dir],
    ],
  });
}

const dartGuards = `class Owner {
  void close() {
    if (controller != null) controller.dispose();
    if (controller != null) other.dispose();
    if (focus  !=  null)
      focus.dispose();
  }
}
`;

const dartCalls = `void cleanup() {
  dispose(a);
  dispose(  b  );
  dispose(
    c,
  );
  print("dispose(d)");
  // dispose(e);
}
`;

describe("ast_grep", () => {
  it("Dart: a guard that disposes the object it checked matches, one that disposes another does not", async () => {
    const run = await runIn({ "lib/owner.dart": dartGuards });
    const result = await run.call("ast_grep", { pattern: "if ($X != null) $X.dispose()" });
    const text = resultText(result);
    expect(result.isError).toBeUndefined();
    expect(text).toMatch(/^2 matches in 1 file/);
    expect(text).toContain("lib/owner.dart:3:5: if (controller != null) controller.dispose();");
    expect(text).toContain("$X=controller");
    expect(text).toContain("lib/owner.dart:5-6");
    expect(text).not.toContain("lib/owner.dart:4");
  });

  it("Dart: dispose($X) matches however spaced or wrapped, never in a string or comment", async () => {
    const run = await runIn({ "lib/cleanup.dart": dartCalls });
    const result = await run.call("ast_grep", { pattern: "dispose($X)", path: "lib/cleanup.dart" });
    const text = resultText(result);
    expect(text).toMatch(/^3 matches in 1 file/);
    expect((result.structured!["matches"] as Array<{ line: number }>).map((match) => match.line)).toEqual([2, 3, 4]);
    expect(text).toContain("$X=a");
    expect(text).toContain("$X=b");
    expect(text).toContain("$X=c");
  });

  it("Go: fmt.Println($$$A) is read as a call, not a type conversion", async () => {
    const run = await runIn({
      "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("a", 1)\n\tfmt.Println()\n}\n',
    });
    const text = resultText(await run.call("ast_grep", { pattern: "fmt.Println($$$A)" }));
    expect(text).toMatch(/^2 matches in 1 file/);
    expect(text).toContain("read as `call_expression`");
    expect(text).toContain('$$$A="a", 1');
  });

  it("a repeated metavariable must capture structurally equal code (whitespace ignored)", async () => {
    const run = await runIn({ "eq.ts": "f(x) == f( x );\nf(x) == f(y);\n\"a\" == 'a';\na.b == a .b;\n" });
    const result = await run.call("ast_grep", { pattern: "$A == $A" });
    expect((result.structured!["matches"] as Array<{ line: number }>).map((match) => match.line)).toEqual([1, 4]);
  });

  it("explains a zero-match answer: the reading and how many files were scanned", async () => {
    const run = await runIn({ "a.py": "print(1)\n", "b.py": "x = 2\n" });
    const text = resultText(await run.call("ast_grep", { pattern: "isinstance($A, $B)", language: "python" }));
    expect(text).toContain("0 matches");
    expect(text).toContain("scanned 2 python files");
    expect(text).toContain("read as `call` (context: as-is) in python");
  });

  it("reports an unparseable pattern, naming each context tried", async () => {
    const run = await runIn({ "a.ts": "foo(1);\n" });
    const result = await run.call("ast_grep", { pattern: "foo(", path: "a.ts" });
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text).toContain("invalid_input");
    expect(text).toContain("as-is:");
    expect(text).toContain("statement in a function body");
    expect(text).toContain("class member");
  });

  it("lists the available languages for an unknown one", async () => {
    const run = await runIn({ "a.ts": "x;\n" });
    const text = resultText(await run.call("ast_grep", { pattern: "x", language: "cobol" }));
    expect(text).toContain("invalid_input");
    for (const id of ["dart", "python", "go", "rust", "c", "typescript", "javascript", "html", "css", "tsx"])
      expect(text).toContain(id);
  });

  it("skips ignored, node_modules, hidden, binary, non-UTF-8 and oversized files, and says so", async () => {
    const run = await runIn(
      {
        ".gitignore": "build/\n*.gen.ts\n!keep.gen.ts\n",
        "src/a.ts": "debugger;\n",
        "src/keep.gen.ts": "debugger;\n",
        "src/skip.gen.ts": "debugger;\n",
        "build/out.ts": "debugger;\n",
        "node_modules/pkg/index.ts": "debugger;\n",
        ".hidden/x.ts": "debugger;\n",
        "src/binary.ts": Buffer.from([100, 101, 0, 98, 117, 103]),
        "src/latin1.ts": Buffer.from([
          0x64, 0x65, 0x62, 0x75, 0x67, 0x67, 0x65, 0x72, 0x3b, 0x20, 0x2f, 0x2f, 0xe9, 0x0a,
        ]),
        "src/big.ts": `debugger;\n${"// padding\n".repeat(200)}`,
      },
      { maxFileBytes: 1024 },
    );
    const result = await run.call("ast_grep", { pattern: "debugger" });
    const text = resultText(result);
    expect((result.structured!["matches"] as Array<{ path: string }>).map((match) => match.path)).toEqual([
      "src/a.ts",
      "src/keep.gen.ts",
    ]);
    expect(text).toContain("scanned 2 typescript files; skipped 1 over 1 KiB, 1 binary, 1 not UTF-8");
  });

  it("searches an explicitly named ignored directory", async () => {
    const run = await runIn({ ".gitignore": "vendor/\n", "vendor/lib.ts": "debugger;\n" });
    const result = await run.call("ast_grep", { pattern: "debugger", path: "vendor" });
    expect(resultText(result)).toMatch(/^1 match in 1 file/);
  });

  it("searches every language of a directory in which the pattern parses, and names the others", async () => {
    const run = await runIn({
      "a.py": "foo(1)\n",
      "b.ts": "foo(2);\n",
      "c.go": "package c\nfunc f() { foo(3) }\n",
      "d.rs": "fn main() { foo(4); }\n",
    });
    const result = await run.call("ast_grep", { pattern: "foo($A)" });
    const text = resultText(result);
    expect(text).toMatch(/^4 matches in 4 files/);
    expect(text).toContain("in python");
    expect(text).toContain("in go");
    const lambda = await run.call("ast_grep", { pattern: "lambda $X: $Y" });
    expect(resultText(lambda)).toContain("not searched: 1 typescript file (the pattern does not parse as typescript)");
    expect(resultText(lambda)).toContain("0 matches");
  });

  it("fails listing the languages present when the pattern parses in none", async () => {
    const run = await runIn({ "a.py": "x\n", "b.py": "y\n", "c.go": "package c\n" });
    const result = await run.call("ast_grep", { pattern: "def (" });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/python \(2 files\).*go \(1 files\)|go \(1 files\).*python \(2 files\)/);
  });

  it("caps the list, states the total and how to narrow", async () => {
    const run = await runIn({ "many.ts": Array.from({ length: 80 }, (_, index) => `call(${index});`).join("\n") });
    const result = await run.call("ast_grep", { pattern: "call($N)", max_results: 5 });
    const text = resultText(result);
    expect(text).toMatch(/^80 matches in 1 file \(showing 5\)/);
    expect(text).toContain("75 more not shown");
    expect((result.structured!["matches"] as Array<{ line: number }>).map((match) => match.line)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it("refuses a path outside the workdir and a bad max_results", async () => {
    const run = await runIn({ "a.ts": "x;\n" });
    expect(resultText(await run.call("ast_grep", { pattern: "x", path: "../" }))).toContain("outside_workdir");
    expect(resultText(await run.call("ast_grep", { pattern: "x", max_results: 0 }))).toContain("invalid_input");
    expect(resultText(await run.call("ast_grep", { pattern: "$X" }))).toContain("lone metavariable");
  });

  it("names the path as given when it does not exist", async () => {
    const run = await runIn({ "a.ts": "let a = 1;\n" });
    const result = await run.call("ast_grep", { pattern: "let $A = 1", path: "src/missing" });
    expect(resultErrorCode(result)).toBe("not_found");
    expect(resultText(result)).toContain("Path `src/missing` does not exist in the working directory.");
  });

  it("counts columns after a UTF-8 byte order mark as editors do", async () => {
    const run = await runIn({ "bom.js": "\uFEFFconsole.log(1);\nconsole.log(2);\n" });
    const result = await run.call("ast_grep", { pattern: "console.log($A)" });
    expect(
      (result.structured!["matches"] as Array<{ line: number; column: number }>).map((match) => [
        match.line,
        match.column,
      ]),
    ).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(resultText(result)).toContain("bom.js:1:1: console.log(1)");
  });

  it("says a file was skipped, not absent, when every file of the language was skipped", async () => {
    const run = await runIn(
      { "big.js": `foo(1);\n${"// padding\n".repeat(200)}`, "bin.js": Buffer.from("foo(2);\u0000") },
      { maxFileBytes: 1024 },
    );
    const text = resultText(await run.call("ast_grep", { pattern: "foo($A)" }));
    expect(text).toContain("skipped 1 over 1 KiB, 1 binary");
    expect(text).toContain("Every file of the pattern's language under this path was skipped");
    expect(text).not.toContain("No file of the pattern's language is under this path");
  });

  it("PHP: `$NAME` metavariables (variable_name nodes) parse and capture", async () => {
    const run = await runIn({ "a.php": "<?php\nfoo($x);\n$y = bar(1, 2);\n" });
    const text = resultText(await run.call("ast_grep", { pattern: "bar($$$ARGS)" }));
    expect(text).toMatch(/^1 match in 1 file/);
    expect(text).toContain("$$$ARGS=1, 2");
    expect(resultText(await run.call("ast_grep", { pattern: "foo($ARG)" }))).toContain("$ARG=$x");
  });

  it("keeps the whole answer under 16 KB when many languages are searched", async () => {
    const files: Record<string, string> = {};
    const longName = "a".repeat(60);
    for (const extension of [
      "py",
      "go",
      "rs",
      "cpp",
      "java",
      "kt",
      "swift",
      "rb",
      "scala",
      "lua",
      "ex",
      "hs",
      "js",
      "ts",
      "tsx",
    ]) {
      for (let index = 0; index < 20; index++)
        files[`some/deeply/nested/directory/${extension}/file_with_a_long_name_${index}.${extension}`] =
          `foo(${longName}${index})\n`;
    }
    const run = await runIn(files);
    const result = await run.call("ast_grep", { pattern: "foo($A)", max_results: 500 });
    const text = resultText(result);
    expect(text).toMatch(/^\d+ matches in \d+ files \(showing \d+\)/);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(16 * 1024);
  });

  it("reports positions in UTF-16 units and keeps captures of files matched in parallel apart", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 40; index++)
      files[`f${String(index).padStart(2, "0")}.ts`] = `const s = "héllo 😀"; use(value${index});\n`;
    const run = await runIn(files);
    const result = await run.call("ast_grep", { pattern: "use($V)", max_results: 40 });
    const matches = result.structured!["matches"] as Array<{ path: string; column: number; text: string }>;
    expect(matches).toHaveLength(40);
    matches.forEach((match, index) => {
      expect(match.text).toBe(`use(value${index})`);
      expect(match.column).toBe(23);
    });
  });
});
