import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";

// A C++ `if` block with a `$$$` body parses with a MISSING `;` in every context; ast-grep matches
// with that reading anyway, and so do the tools when the language is given.
const cpp = `#include <cstdio>
int main() {
  int a = 1;
  if (a) { puts("x"); }
}
`;

const { runIn } = parserRunsInTempWorkspaces();

describe("patterns that only parse with errors", () => {
  it("ast_grep with a language matches with the best tolerant reading and says it parsed with errors", async () => {
    const run = await runIn({ "m.cpp": cpp });
    const result = await run.call("ast_grep", { pattern: "if (a) { $$$BODY }", language: "cpp" });
    const text = resultText(result);
    expect(result.isError).toBeUndefined();
    expect(text).toMatch(/^1 match in 1 file/);
    expect(text).toContain('m.cpp:4:3: if (a) { puts("x"); }');
    expect(text).toContain("parsed with errors");
    expect(text).toContain("best tolerant reading");
  });

  it("a tolerant reading that finds nothing is refused as unparseable, naming the contexts tried", async () => {
    const run = await runIn({ "m.cpp": cpp });
    const result = await run.call("ast_grep", { pattern: "if (zz) { $$$BODY }", language: "cpp" });
    expect(resultErrorCode(result)).toBe("invalid_input");
    const text = resultText(result);
    expect(text).toContain("`if (zz) { $$$BODY }` does not parse as cpp");
    expect(text).toContain("as-is:");
    expect(text).toContain("found nothing");
  });

  it("ast_edit stages with the tolerant reading and refuses one that finds nothing", async () => {
    const run = await runIn({ "m.cpp": cpp });
    const staged = await run.call("ast_edit", {
      pattern: "if (a) { $$$BODY }",
      rewrite: "if (a != 0) { $$$BODY }",
      language: "cpp",
    });
    expect(staged.isError).toBeUndefined();
    expect(resultText(staged)).toMatch(/^\(proposed\) 1 replacement in 1 file/);
    const refused = await run.call("ast_edit", {
      pattern: "if (zz) { $$$BODY }",
      rewrite: "if (zz) {}",
      language: "cpp",
    });
    expect(resultErrorCode(refused)).toBe("invalid_input");
    expect(resultText(refused)).toContain("found nothing");
  });

  it("a pattern ast-grep reads as an ERROR node matches the code it spells, of any kind, apart from the file's own syntax errors", async () => {
    const run = await runIn({ "s.cpp": "struct A: B {};\nstruct E {};\nint broken( = ;\n" });
    const found = await run.call("ast_grep", { pattern: "struct $A: $B", language: "cpp" });
    const text = resultText(found);
    expect(found.isError, text).toBeUndefined();
    expect(text).toMatch(/^1 match in 1 file/);
    expect(text).toContain("s.cpp:1:1: struct A: B {}");
    expect(text).toContain("read as an ERROR node (context: as-is) in cpp");
    expect(found.structured?.["syntax_errors"]).toMatchObject({ files: 1 });
    const staged = await run.call("ast_edit", {
      pattern: "struct $A: $B",
      rewrite: "struct $A : public $B",
      language: "cpp",
    });
    expect(resultText(staged)).toMatch(/^\(proposed\) 1 replacement in 1 file/);
  });

  it("a match that is itself misparsed code is found, and ast_edit leaves it alone", async () => {
    const run = await runIn({ "m.go": "package main\n\nfunc main() { print(\"123\") }\n\nprint('123')\n" });
    const found = await run.call("ast_grep", { pattern: "print('123')", language: "go" });
    expect(resultText(found)).toMatch(/^1 match in 1 file/);
    expect(resultText(found)).toContain("m.go:5:1: print('123')");
    const staged = await run.call("ast_edit", { pattern: "print('123')", rewrite: 'print("123")', language: "go" });
    expect(staged.isError).toBeUndefined();
    expect(resultText(staged)).toContain("Nothing staged: no match could be rewritten.");
    expect(resultText(staged)).toContain("NOT rewritten because it overlaps code the grammar could not parse");
  });

  it("a search over every language present stays strict: a language with only a tolerant reading is left out", async () => {
    const run = await runIn({ "m.cpp": cpp });
    const result = await run.call("ast_grep", { pattern: "if (a) { $$$BODY }" });
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toContain("does not parse in any language present");
  });
});
