import { resultText } from "@runbound/tool-kit";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";

const { runIn, workspace } = parserRunsInTempWorkspaces();

// TypeScript variance annotations (`out A`) are read as ERROR nodes by the bundled grammar; the
// `return x +` statement is one ERROR node that hides the return inside it.
const variance = `export interface Handle<out A = unknown> {
  readonly value: A
}
export function make() {
  return 1
}
export function half(x: number) {
  return x +
}
`;
const cleanTs = "export function two() {\n  return 2\n}\n";
// The Python grammar cannot read the unclosed tuple, nor the Go one the statement after the unclosed
// literal; `broken(:` is repaired with a MISSING `)` (no ERROR node, no code lost).
const brokenPython = "def ok():\n    return 1\n\ndef broken():\n    x = (1,\n    return 2\n";
const missingParenthesis = "def ok():\n    return 1\n\ndef broken(:\n    return 2\n";
const brokenGo = "package main\n\nfunc main() {\n\tvalues := []int{1, 2\n\treturn\n}\n";

describe("files the grammar could not read", () => {
  it("ast_grep names each file with syntax errors and the line of its first ERROR, and says matches may be missing", async () => {
    const run = await runIn({ "src/handle.ts": variance, "src/two.ts": cleanTs });
    const result = await run.call("ast_grep", { pattern: "return $X", path: "src" });
    const text = resultText(result);
    expect(text).toMatch(/^2 matches in 2 files/);
    expect(text).toContain(
      '1 of the 2 files parsed has syntax errors the grammar could not read: src/handle.ts:1 (ERROR near "out A").',
    );
    expect(text).toContain("Matches inside those regions may be missing.");
    expect(result.structured).toMatchObject({
      syntax_errors: { files: 1, parsed: 2, first: ['src/handle.ts:1 (ERROR near "out A")'] },
    });

    // Clean files (an empty one included: its root is zero-width, not a missing token) add no line.
    await workspace().write("src/empty.ts", "");
    const clean = resultText(await run.call("ast_grep", { pattern: "$A($B)", path: "src/two.ts" }));
    const empty = resultText(await run.call("ast_grep", { pattern: "$A($B)", path: "src/empty.ts" }));
    for (const text of [clean, empty]) {
      expect(text).not.toContain("syntax error");
      expect(text).not.toContain("may be missing");
    }
  });

  it("names broken Python and Go files too, in path order, in a directory search of several languages", async () => {
    const run = await runIn({
      "b/broken.py": brokenPython,
      "a/main.go": brokenGo,
      "c/ok.py": "def f():\n    return 3\n",
    });
    const result = await run.call("ast_grep", { pattern: "return $X" });
    const text = resultText(result);
    expect(text).toContain(
      '2 of the 3 files parsed have syntax errors the grammar could not read: a/main.go:5 (ERROR near "return"), b/broken.py:5 (ERROR near "x = (1,").',
    );
    expect(result.structured).toMatchObject({ syntax_errors: { files: 2, parsed: 3 } });
  });

  it("a later search of the kept tree, with another pattern, still names them (the tree's ERROR nodes are looked for once)", async () => {
    const run = await runIn({ "src/handle.ts": variance, "src/two.ts": cleanTs });
    await run.call("ast_grep", { pattern: "return $X", path: "src" });
    const again = await run.call("ast_grep", { pattern: "function $F($$$P) { $$$B }", path: "src" });
    expect(resultText(again)).toContain(
      '1 of the 2 files parsed has syntax errors the grammar could not read: src/handle.ts:1 (ERROR near "out A").',
    );
    expect(again.structured).toMatchObject({ syntax_errors: { files: 1, parsed: 2 } });
  });

  it("a zero-match answer names them as well", async () => {
    const run = await runIn({ "src/handle.ts": variance });
    const text = resultText(await run.call("ast_grep", { pattern: "return $X * 2", path: "src/handle.ts" }));
    expect(text).toMatch(/^0 matches/);
    expect(text).toContain(
      'The 1 file parsed has syntax errors the grammar could not read: src/handle.ts:1 (ERROR near "out A")',
    );
  });

  it("a file without the pattern's literal words is not parsed, so it is not counted (it cannot match)", async () => {
    const run = await runIn({ "src/handle.ts": variance, "src/other.ts": "const broken = (;\n" });
    const text = resultText(await run.call("ast_grep", { pattern: "return $X", path: "src" }));
    expect(text).toContain("The 1 file parsed has syntax errors");
  });

  it("the answer stays under its 16 KB budget with thousands of broken files", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 3000; index++)
      files[`broken/deeply/nested/directory/file-${String(index).padStart(4, "0")}.ts`] =
        `export function f${index}() {\n  return g(a b)\n}\n`;
    const run = await runIn(files);
    const result = await run.call("ast_grep", { pattern: "return $X" });
    const text = resultText(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(16 * 1024);
    expect(text).toMatch(/^3000 matches in 3000 files/);
    expect(text).toContain(
      'All 3000 files parsed have syntax errors the grammar could not read: broken/deeply/nested/directory/file-0000.ts:2 (ERROR near "a b")',
    );
    expect(text).toContain("and 2995 more. Matches inside those regions may be missing.");
    expect(Buffer.byteLength(JSON.stringify(result.structured))).toBeLessThanOrEqual(16 * 1024);
  }, 120_000);
});

describe("ast_edit and ERROR regions", () => {
  it("refuses to stage a replacement whose span overlaps an ERROR region, stages the others and says so", async () => {
    const source =
      "export function fine() {\n  return compute(a, b)\n}\nexport function broken() {\n  return compute(a b)\n}\n";
    const run = await runIn({ "src/calc.ts": source });
    const result = await run.call("ast_edit", {
      pattern: "return compute($$$ARGS)",
      rewrite: "return calculate($$$ARGS)",
    });
    const text = resultText(result);
    expect(text).toMatch(/^\(proposed\) 1 replacement in 1 file/);
    expect(text).toContain(
      "1 match was NOT rewritten because it overlaps code the grammar could not parse (a rewrite there would write garbage): src/calc.ts:5 (ERROR from line 5).",
    );
    expect(text).toContain(
      'The 1 file parsed has syntax errors the grammar could not read: src/calc.ts:5 (ERROR near "a b")',
    );
    expect(result.structured).toMatchObject({ replacements: 1, in_error_regions: 1 });
    const editId = (result.structured as { edit_id: string }).edit_id;
    await run.call("resolve", { edit_id: editId, action: "accept" });
    expect(await readFile(join(workspace().dir, "src/calc.ts"), "utf8")).toBe(
      source.replace("return compute(a, b)", "return calculate(a, b)"),
    );
  });

  it("names a file whose only flaw is a MISSING token (a search does not look for them: no code is lost)", async () => {
    const run = await runIn({ "lib/a.py": missingParenthesis });
    const edit = resultText(await run.call("ast_edit", { pattern: "return $X", rewrite: "return ($X)" }));
    expect(edit).toMatch(/^\(proposed\) 2 replacements in 1 file/);
    expect(edit).toContain('The 1 file parsed has syntax errors the grammar could not read: lib/a.py:4 (MISSING ")")');
    const search = resultText(await run.call("ast_grep", { pattern: "return $X" }));
    expect(search).toMatch(/^2 matches in 1 file/);
    expect(search).not.toContain("syntax errors");
    // A rewrite after that search, from the kept tree, looks for MISSING nodes again.
    const again = resultText(await run.call("ast_edit", { pattern: "return $X", rewrite: "return [$X]" }));
    expect(again).toContain('The 1 file parsed has syntax errors the grammar could not read: lib/a.py:4 (MISSING ")")');
  });

  it("stages nothing when every match overlaps an ERROR region", async () => {
    const run = await runIn({ "src/calc.ts": "export function broken() {\n  return compute(a b)\n}\n" });
    const result = await run.call("ast_edit", {
      pattern: "return compute($$$ARGS)",
      rewrite: "return calculate($$$ARGS)",
    });
    const text = resultText(result);
    expect(text).toMatch(/^Nothing staged: no match could be rewritten\./);
    expect(text).toContain("src/calc.ts:2 (ERROR from line 2)");
    expect(result.structured).toMatchObject({ staged: 0, in_error_regions: 1 });
  });
});
