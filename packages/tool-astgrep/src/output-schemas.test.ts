import type { ToolResult } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";
import { astEditOutputSchema } from "./ast-edit-output.js";
import { astGrepOutputSchema } from "./ast-grep-output.js";
import { astEditTool, astGrepTool, resolveTool } from "./index.js";
import { resolveOutputSchema } from "./resolve-output.js";

const { runIn, workspace } = parserRunsInTempWorkspaces();

/** The structured value as an MCP client receives it (JSON), parsed with the declared schema. */
function parsed<S extends v.GenericSchema>(schema: S, result: ToolResult): v.InferOutput<S> {
  expect(result.isError).toBeUndefined();
  return v.parse(schema, JSON.parse(JSON.stringify(result.structured)) as unknown);
}

describe("output schemas of ast_grep, ast_edit and resolve", () => {
  it("each tool declares its schema", () => {
    expect(astGrepTool.output).toBe(astGrepOutputSchema);
    expect(astEditTool.output).toBe(astEditOutputSchema);
    expect(resolveTool.output).toBe(resolveOutputSchema);
  });

  it("ast_grep: matches with readings and alternatives, skipped files and syntax errors", async () => {
    const run = await runIn({
      "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("a", 1)\n}\n',
      "src/handle.ts":
        "export interface Handle<out A = unknown> {\n  readonly value: A\n}\nexport function f() {\n  return 1\n}\n",
    });
    await workspace().write("src/binary.ts", Buffer.from([100, 101, 0, 98, 117, 103]));
    const go = parsed(astGrepOutputSchema, await run.call("ast_grep", { pattern: "fmt.Println($$$A)" }));
    expect(go.matches).toEqual([{ path: "main.go", line: 6, column: 2, text: 'fmt.Println("a", 1)' }]);
    expect(go.readings[0]!.alternatives.map((alternative) => alternative.selector)).toContain(
      "type_conversion_expression",
    );
    const ts = parsed(astGrepOutputSchema, await run.call("ast_grep", { pattern: "return $X", path: "src" }));
    expect(ts).toMatchObject({ total: 1, files: 1, skipped: { binary: 1 }, syntax_errors: { files: 1 } });
    expect(ts.skipped_entries).toEqual([{ path: "src/binary.ts", reason: expect.any(String) }]);
  });

  it("ast_grep: no match, a rule, and matches cut by the text's size bound", async () => {
    const many = Array.from({ length: 400 }, (_, index) => `call(${"x".repeat(60)}${index});`).join("\n");
    const run = await runIn({ "a.ts": "const a = 1;\n", "many.js": `${many}\n` });
    const none = parsed(astGrepOutputSchema, await run.call("ast_grep", { pattern: "missing($X)" }));
    expect(none).toMatchObject({ total: 0, matches: [] });
    const rule = parsed(
      astGrepOutputSchema,
      await run.call("ast_grep", { rule: "rule:\n  kind: lexical_declaration\n", language: "typescript" }),
    );
    expect(rule.total).toBe(1);
    const cut = parsed(astGrepOutputSchema, await run.call("ast_grep", { pattern: "call($X)", max_results: 500 }));
    expect(cut.total).toBe(400);
    expect(cut.matches.length).toBeLessThan(400);
  });

  it("ast_edit and resolve: staged, nothing to stage, already rewritten, accepted and discarded", async () => {
    const run = await runIn({ "a.py": "wrap(wrap(x))\nbox(y)\n" });
    const staged = parsed(astEditOutputSchema, await run.call("ast_edit", { pattern: "wrap($A)", rewrite: "box($A)" }));
    expect(staged).toEqual({
      edit_id: "edit_1",
      replacements: 1,
      files: ["a.py"],
      overlaps: 1,
      in_error_regions: 0,
    });
    expect(parsed(resolveOutputSchema, await run.call("resolve", { edit_id: "edit_1", action: "accept" }))).toEqual({
      edit_id: "edit_1",
      action: "accept",
      files: ["a.py"],
    });
    expect(
      parsed(astEditOutputSchema, await run.call("ast_edit", { pattern: "missing($A)", rewrite: "gone($A)" })),
    ).toEqual({ total: 0 });
    expect(parsed(astEditOutputSchema, await run.call("ast_edit", { pattern: "box($A)", rewrite: "box($A)" }))).toEqual(
      { total: 2, staged: 0, in_error_regions: 0 },
    );
    parsed(astEditOutputSchema, await run.call("ast_edit", { pattern: "box($A)", rewrite: "crate($A)" }));
    expect(parsed(resolveOutputSchema, await run.call("resolve", { edit_id: "edit_2", action: "discard" }))).toEqual({
      edit_id: "edit_2",
      action: "discard",
    });
  });

  it("the schemas refuse what the tools never answer, so a drift fails here", () => {
    expect(v.safeParse(astGrepOutputSchema, { total: 0 }).success).toBe(false);
    expect(v.safeParse(astEditOutputSchema, { replacements: "1" }).success).toBe(false);
    expect(v.safeParse(resolveOutputSchema, { edit_id: "edit_1", action: "keep" }).success).toBe(false);
  });
});
