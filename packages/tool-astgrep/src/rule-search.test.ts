import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";
import { nativeEngine } from "./engine-binding.js";

const runs = parserRunsInTempWorkspaces();
// The package's second test pass runs on napi (RUNBOUND_ASTGREP_ENGINE=napi), where rewriters are refused.
const engineOn = process.env["RUNBOUND_ASTGREP_ENGINE"] !== "napi" && nativeEngine() !== undefined;

const source = [
  "function load(path: string) {",
  "  console.log(path);",
  "  if (path) { console.log(1, path); }",
  "}",
  "console.log(2);",
  "const value = fetch(url);",
  "",
].join("\n");

async function grep(input: Record<string, unknown>, files: Record<string, string> = { "a.ts": source }) {
  const run = await runs.runIn(files);
  const result = await run.call("ast_grep", { path: "a.ts", ...input });
  return { result, text: resultText(result), total: result.structured?.["total"] as number | undefined };
}

describe("ast_grep with an ast-grep rule", () => {
  it("runs a relational rule given as YAML: `inside` with `stopBy: end` finds calls at any depth of a function", async () => {
    const found = await grep({
      rule: "rule:\n  pattern: console.log($$$ARGS)\n  inside:\n    kind: function_declaration\n    stopBy: end\n",
    });
    expect(found.result.isError, found.text).toBeUndefined();
    expect(found.total).toBe(2);
    expect(found.text).toContain("a.ts:2:3: console.log(path)");
    expect(found.text).toContain("Rule read as the ast-grep rule");
  });

  it("takes a bare rule object as JSON, with composite parts, `constraints` and `utils`", async () => {
    const rule = JSON.stringify({
      rule: { all: [{ matches: "logCall" }, { not: { has: { kind: "number", stopBy: "end" } } }] },
      utils: { logCall: { pattern: "console.log($$$ARGS)" } },
    });
    expect((await grep({ rule })).total).toBe(1);
    expect(
      (await grep({ rule: JSON.stringify({ pattern: "console.log($A)", constraints: { A: { regex: "^\\d" } } }) }))
        .total,
    ).toBe(1);
    expect((await grep({ rule: "any:\n  - pattern: fetch($U)\n  - kind: if_statement\n" })).total).toBe(2);
  });

  it("runs the atomic fields `kind`, `regex`, `nthChild` and `range`", async () => {
    expect((await grep({ rule: "kind: call_expression\nregex: ^console" })).total).toBe(3);
    expect((await grep({ rule: "kind: identifier\nnthChild: 1\ninside: {kind: arguments}" })).total).toBe(2);
    expect(
      (await grep({ rule: JSON.stringify({ range: { start: { line: 4, column: 0 }, end: { line: 4, column: 14 } } }) }))
        .total,
    ).toBe(1);
  });

  it("refuses an unknown kind naming the field, the value and the kinds near it", async () => {
    const found = await grep({
      rule: "pattern: console.log($A)\ninside:\n  kind: function_declarations\n  stopBy: end\n",
    });
    expect(found.result.isError).toBe(true);
    expect(found.text).toContain("`rule.inside.kind` is `function_declarations`");
    expect(found.text).toContain("`function_declaration`");
  });

  it("refuses an unknown field and YAML that is no rule, saying where", async () => {
    const misspelt = await grep({ rule: "all:\n  - patern: foo($A)\n" });
    expect(misspelt.text).toContain("`rule.all[0].patern` is `foo($A)`");
    expect(misspelt.text).toContain("unknown field `patern`");
    expect((await grep({ rule: "foo($A)" })).text).toContain("not as a mapping of rule fields");
    expect((await grep({ rule: "pattern: [" })).text).toMatch(/not valid YAML at 1:\d+/);
    expect((await grep({ rule: "pattern: f($A)\ninside: {kind: call_expression, stopBy: nowhere}" })).text).toContain(
      "`rule.inside.stopBy` is `nowhere`",
    );
    expect((await grep({ rule: "matches: isLog" })).text).toContain("`isLog` is not defined");
  });

  it("takes a rule file's `rewriters` on the native engine, each match carrying the `rewrite` transform's text; on napi it refuses them naming the engine", async () => {
    // Shaped like the rule file of ast-grep-config's `test_add_rewriters` (rule_config.rs).
    const found = await grep({
      rule: "rule: {pattern: 'console.log($A)'}\ntransform:\n  B:\n    rewrite:\n      rewriters: [re]\n      source: $A\nrewriters:\n- id: re\n  rule: {kind: number}\n  fix: yjsnp\n",
    });
    if (engineOn) {
      expect(found.result.isError, found.text).toBeUndefined();
      expect(found.total).toBe(2);
      expect(found.text).toContain("$A=path  $B=path");
      expect(found.text).toContain("$A=2  $B=yjsnp");
      expect(found.text).toContain("rewriters `re`");
    } else {
      expect(resultErrorCode(found.result)).toBe("unavailable");
      expect(found.text).toContain("ast_grep and ast_edit run only on the native engine (@runbound/astgrep-engine)");
      expect(found.text).toContain("RUNBOUND_ASTGREP_ENGINE=napi turns it off");
    }
    expect(found.text).not.toContain("which ast-grep does not know");
  });

  it.runIf(engineOn)(
    "refuses an invalid rewriter naming it, and an undefined one naming the transform, with ast-grep's reason",
    async () => {
      const wrongKind = await grep({
        rule: "rule: {pattern: 'console.log($A)'}\nrewriters:\n- id: wrong\n  rule: {kind: numbr}\n  fix: '0'\n",
      });
      expect(resultErrorCode(wrongKind.result)).toBe("invalid_input");
      expect(wrongKind.text).toContain("The rule's `rewriters[0]` is");
      expect(wrongKind.text).toContain("Rewriter `wrong` has invalid configuration");
      expect(wrongKind.text).toContain("`number`");
      const noFix = await grep({ rule: "rule: {kind: number}\nrewriters:\n- id: bare\n  rule: {kind: number}\n" });
      expect(noFix.text).toContain("The rule's `rewriters[0]` is");
      expect(noFix.text).toContain("missing field `fix`");
      const undefinedOne = await grep({
        rule: "rule: {pattern: 'console.log($A)'}\ntransform:\n  B: {rewrite: {rewriters: [nope], source: $A}}\nrewriters:\n- id: re\n  rule: {kind: number}\n  fix: '0'\n",
      });
      expect(undefinedOne.text).toContain("The rule's `transform` is");
      expect(undefinedOne.text).toContain("Undefined rewriter `nope` used in transform");
      expect((await grep({ rule: "rule: {kind: number}\nrewriters: {id: re}\n" })).text).toContain(
        '`rewriters` is `{"id":"re"}`; it must be a list of rewriters',
      );
    },
  );

  it("explains a rule that matches nothing: how it was read, the files scanned, and the `stopBy` hint", async () => {
    const found = await grep({ rule: "pattern: console.log($A)\ninside:\n  kind: function_declaration\n" });
    expect(found.total).toBe(0);
    expect(found.text).toContain("0 matches (scanned 1 typescript file)");
    expect(found.text).toContain("`console.log($A)` as `call_expression`");
    expect(found.text).toContain("`inside` without `stopBy` looks only at the parent");
    expect(found.text).toContain("The rule compiled");
  });

  it("needs a language for a rule over a directory, and takes the rule's own", async () => {
    const run = await runs.runIn({ "a.ts": source });
    expect(resultText(await run.call("ast_grep", { rule: "kind: call_expression" }))).toContain(
      "A rule belongs to one language",
    );
    expect(
      (await run.call("ast_grep", { rule: "language: typescript\nrule: {kind: call_expression}" })).structured?.[
        "total"
      ],
    ).toBe(4);
    expect(resultText(await run.call("ast_grep", { rule: "kind: call_expression", pattern: "f()" }))).toContain(
      "not both",
    );
  });
});

describe("ast_edit with an ast-grep rule", () => {
  it("stages the rule's `fix`, with a metavariable its `transform` defines", async () => {
    const run = await runs.runIn({ "a.ts": source });
    const rule = [
      "rule:",
      "  pattern: console.log($A)",
      "  inside: {kind: function_declaration, stopBy: end}",
      "transform:",
      "  UPPER:",
      "    convert: {source: $A, toCase: upperCase}",
      "fix: console.info($UPPER)",
    ].join("\n");
    const result = await run.call("ast_edit", { rule, path: "a.ts" });
    expect(result.isError, resultText(result)).toBeUndefined();
    expect(result.structured?.["replacements"]).toBe(1);
    expect(resultText(result)).toContain("console.info(PATH)");
    expect(
      resultText(
        await run.call("ast_edit", { rule: "pattern: console.log($A)\nfix: {template: 'x($B)'}", path: "a.ts" }),
      ),
    ).toContain("`$B`, which the rule does not capture");
    expect(resultText(await run.call("ast_edit", { rule: "pattern: console.log($A)", path: "a.ts" }))).toContain(
      "a `fix` in the rule",
    );
  });
});
