import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { rewrittenByCli as rewrittenByCliFile } from "./__fixtures__/ast-grep-cli.js";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";

// Issue 27: a fix's expandStart / expandEnd rewrite what ast-grep's own `scan -U` rewrites.
const runs = parserRunsInTempWorkspaces();

/** `file` after `ast-grep scan --rule <rule> -U`, the rule given the id and language a rule file needs. */
function rewrittenByCli(rule: string, file: string, source: string): string {
  return rewrittenByCliFile(`id: expansion\nlanguage: TypeScript\n${rule}`, file, source);
}

/** `file` after ast_edit with `rule` and resolve's accept. */
async function rewrittenByTool(rule: string, file: string, source: string): Promise<string> {
  const run = await runs.runIn({ [file]: source });
  const staged = await run.call("ast_edit", { rule: `language: TypeScript\n${rule}`, path: file });
  expect(staged.isError, resultText(staged)).toBeUndefined();
  const accepted = await run.call("resolve", { edit_id: staged.structured!["edit_id"], action: "accept" });
  expect(accepted.isError, resultText(accepted)).toBeUndefined();
  return readFileSync(join(runs.workspace().dir, file), "utf8");
}

const cases: Array<{ name: string; rule: string; source: string }> = [
  {
    name: "expandEnd takes the comma after a removed object member (neighbor)",
    rule: "rule: {kind: pair, has: {field: key, regex: '^b$'}}\nfix: {template: '', expandEnd: {regex: ','}}\n",
    source: "const a = { b: 123, c: 4 };\nconst d = { c: 1, b: 2 };\n",
  },
  {
    name: "expandStart takes the comma before a removed argument",
    rule: "rule: {kind: number, regex: '^3$', inside: {kind: arguments}}\nfix: {template: '', expandStart: {regex: ','}}\n",
    source: "f(1, 2, 3);\ng(3);\n",
  },
  {
    name: "stopBy: end takes the first later sibling that matches, past others",
    rule: "rule: {pattern: 'let $A = 1'}\nfix: {template: 'let $A = 2', expandEnd: {kind: comment, stopBy: end}}\n",
    source: "function f() {\n  let x = 1;\n  x += 1;\n  // done\n  return x;\n}\n",
  },
];

describe("ast_edit with a fix that expands (expandStart / expandEnd)", () => {
  for (const { name, rule, source } of cases) {
    it(`${name}, as ast-grep scan -U does`, async () => {
      const expected = rewrittenByCli(rule, "a.ts", source);
      expect(expected).not.toBe(source);
      expect(await rewrittenByTool(rule, "a.ts", source)).toBe(expected);
    });
  }

  it("refuses an expansion ast-grep refuses, naming the fix's field, before anything is searched", async () => {
    const run = await runs.runIn({ "a.ts": "const a = { b: 1 };\n" });
    const result = await run.call("ast_edit", {
      rule: "language: TypeScript\nrule: {kind: pair}\nfix: {template: '', expandEnd: {kind: no_such_kind}}\n",
      path: "a.ts",
    });
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toContain("The rule's `fix.expandEnd.kind` is `no_such_kind`, which ast-grep refuses");
  });
});
