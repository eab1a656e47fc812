import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { cliCount, cliRefusal, rewrittenByCli } from "./__fixtures__/ast-grep-cli.js";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";
import { nativeEngine } from "./engine-binding.js";

// Rule files with `rewriters` (issue 27 item 4): what `ast-grep scan` finds and what `scan -U` writes.
// Under RUNBOUND_ASTGREP_ENGINE=napi (the package's second test pass), or without a built engine, they
// are refused, needing the engine.
const engineWanted = process.env["RUNBOUND_ASTGREP_ENGINE"] !== "napi";
if (engineWanted && process.env["RUNBOUND_REQUIRE_REAL"] === "1" && nativeEngine() === undefined)
  throw new Error("RUNBOUND_REQUIRE_REAL=1 asks for the native engine, and it did not load.");
const engineOn = engineWanted && nativeEngine() !== undefined;
const runs = parserRunsInTempWorkspaces();

const source = [
  "function load() {",
  "  import {a, b, c} from './barrel';",
  "  return [1, 114, 22];",
  "}",
  "import {x} from './barrel';",
  "const n = [114514, 7];",
  "",
].join("\n");

const cases: Array<{ name: string; rule: string }> = [
  {
    // ast-grep's documentation of `rewriters` (https://ast-grep.github.io/guide/rewrite/rewriter.html).
    name: "a barrel import split into one import per name, joined by newlines (indented inside a function)",
    rule: [
      "rule: {pattern: \"import {$$$IDENTS} from './barrel'\"}",
      "rewriters:",
      "- id: rewrite-identifier",
      "  rule: {pattern: $IDENT, kind: identifier}",
      "  fix: import $IDENT from './barrel/$IDENT'",
      "transform:",
      "  IMPORTS:",
      '    rewrite: {rewriters: [rewrite-identifier], source: $$$IDENTS, joinBy: "\\n"}',
      "fix: $IMPORTS",
    ].join("\n"),
  },
  {
    name: "the same imports inside a block of the fix, on the fix's indented line",
    rule: [
      "rule: {pattern: \"import {$$$IDENTS} from './barrel'\"}",
      "rewriters:",
      "- id: rewrite-identifier",
      "  rule: {pattern: $IDENT, kind: identifier}",
      "  fix: import $IDENT from './barrel/$IDENT'",
      "transform:",
      "  IMPORTS:",
      '    rewrite: {rewriters: [rewrite-identifier], source: $$$IDENTS, joinBy: "\\n"}',
      'fix: "{\\n  $IMPORTS\\n}"',
    ].join("\n"),
  },
  {
    // Shaped like ast-grep-config's `test_use_rewriter_recursive` (rule_config.rs), over array elements.
    name: "a rewriter whose own transform uses another rewriter",
    rule: [
      "rule: {pattern: '[$$$ITEMS]'}",
      "transform:",
      "  OUT: {rewrite: {rewriters: [re], source: $$$ITEMS, joinBy: ', '}}",
      "rewriters:",
      "- id: handle-num",
      "  rule: {regex: '114'}",
      "  fix: '1919810'",
      "- id: re",
      "  rule: {kind: number, pattern: $A}",
      "  transform:",
      "    B: {rewrite: {rewriters: [handle-num], source: $A}}",
      "  fix: $B",
      "fix: '[$OUT]'",
    ].join("\n"),
  },
];

describe.runIf(engineOn)("rule files with `rewriters`, as `ast-grep scan` reads them", () => {
  for (const { name, rule } of cases) {
    it(`${name}: ast_grep finds what \`scan --inline-rules\` finds`, async () => {
      const run = await runs.runIn({ "a.ts": source });
      const expected = cliCount(
        ["scan", "--inline-rules", `id: rewriters\nlanguage: TypeScript\n${rule}`],
        runs.workspace().dir,
      );
      expect(expected).toBeGreaterThan(0);
      const result = await run.call("ast_grep", { rule, language: "typescript" });
      expect(result.structured?.["total"], resultText(result)).toBe(expected);
    });

    it(`${name}: ast_edit writes what \`scan -U\` writes`, async () => {
      const expected = rewrittenByCli(`id: rewriters\nlanguage: TypeScript\n${rule}`, "a.ts", source);
      expect(expected).not.toBe(source);
      const run = await runs.runIn({ "a.ts": source });
      const staged = await run.call("ast_edit", { rule: `language: TypeScript\n${rule}`, path: "a.ts" });
      expect(staged.isError, resultText(staged)).toBeUndefined();
      const accepted = await run.call("resolve", { edit_id: staged.structured!["edit_id"], action: "accept" });
      expect(accepted.isError, resultText(accepted)).toBeUndefined();
      expect(readFileSync(join(runs.workspace().dir, "a.ts"), "utf8")).toBe(expected);
    });
  }

  it("refuses an invalid rewriter as the CLI does, naming it, before anything is searched", async () => {
    const rule = "rule: {kind: number}\nfix: '1'\nrewriters:\n- id: wrong\n  rule: {kind: numbr}\n  fix: '0'\n";
    const run = await runs.runIn({ "a.ts": source });
    expect(cliRefusal(`id: rewriters\nlanguage: TypeScript\n${rule}`, runs.workspace().dir)).toContain(
      "Rewriter `wrong` has invalid configuration",
    );
    for (const tool of ["ast_grep", "ast_edit"]) {
      const result = await run.call(tool, { rule, language: "typescript" });
      expect(resultErrorCode(result)).toBe("invalid_input");
      expect(resultText(result)).toContain(
        'The rule\'s `rewriters[0]` is `{"id":"wrong","rule":{"kind":"numbr"},"fix":"0"}`, which ast-grep refuses: Rewriter `wrong` has invalid configuration',
      );
      expect(resultText(result)).toContain("Kind `numbr` is invalid");
    }
  });
});

describe.runIf(!engineOn)("rule files with `rewriters` without the engine", () => {
  it("are refused naming the engine, for search and edit", async () => {
    const run = await runs.runIn({ "a.ts": source });
    for (const tool of ["ast_grep", "ast_edit"]) {
      const result = await run.call(tool, { rule: cases[0]!.rule, language: "typescript" });
      expect(resultErrorCode(result)).toBe("unavailable");
      expect(resultText(result)).toContain("run only on the native engine (@runbound/astgrep-engine)");
    }
  });
});
