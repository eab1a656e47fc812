import { resultText } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { cliCount } from "./__fixtures__/ast-grep-cli.js";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";

const runs = parserRunsInTempWorkspaces();

describe("the default reading of a pattern agrees with the ast-grep CLI", () => {
  it("Go `interface{}`: as many matches as `ast-grep run -p 'interface{}' -l go`, and the other reading offered as a pattern object", async () => {
    const run = await runs.runIn({
      "f.go": "package p\n\nfunc f(a interface{}) interface{} { var x interface{} = a; return x }\n",
    });
    const expected = cliCount(["run", "-p", "interface{}", "-l", "go"], runs.workspace().dir);
    expect(expected).toBe(3);
    const result = await run.call("ast_grep", { pattern: "interface{}", language: "go" });
    expect(result.structured?.["total"], resultText(result)).toBe(expected);
    const [reading] = result.structured?.["readings"] as Array<{
      kind: string;
      alternatives: Array<{ context: string; selector: string }>;
    }>;
    expect(reading!.kind).toBe("interface_type");
    const offered = reading!.alternatives.find((alternative) => alternative.selector === "type_elem");
    expect(offered).toEqual({ context: "type __W interface {\ninterface{}\n}", selector: "type_elem" });
    expect(resultText(result)).toContain(`pass \`pattern\` ${JSON.stringify(offered)}`);
    // Passed back, the object searches that reading: no interface body here has an embedded `interface{}`.
    const passedBack = await run.call("ast_grep", { pattern: offered, language: "go" });
    expect(passedBack.structured?.["total"], resultText(passedBack)).toBe(0);
    expect(resultText(passedBack)).toContain("read as given: `type_elem`");
    const asType = await run.call("ast_grep", {
      pattern: { context: "var x interface{}", selector: "interface_type" },
      language: "go",
    });
    expect(asType.structured?.["total"], resultText(asType)).toBe(expected);
  });

  it("refuses a pattern object whose selector is no kind, naming the kinds near it", async () => {
    const run = await runs.runIn({ "f.go": "package p\n" });
    const result = await run.call("ast_grep", {
      pattern: { context: "var x interface{}", selector: "interface_typ" },
      language: "go",
    });
    expect(resultText(result)).toContain("`interface_type`");
  });
});

describe("rules find what `ast-grep scan --inline-rules` finds", () => {
  const source = [
    "package p",
    "",
    'import "fmt"',
    "",
    "func f(a interface{}) error {",
    "\tif a == nil {",
    '\t\tfmt.Println("nil")',
    "\t\treturn nil",
    "\t}",
    "\tfor i := 0; i < 3; i++ {",
    "\t\tfmt.Println(i)",
    "\t}",
    '\tfmt.Printf("%v", a)',
    "\treturn nil",
    "}",
    "",
  ].join("\n");
  const rules = [
    "rule: {kind: call_expression, regex: ^fmt.Println, inside: {kind: for_statement, stopBy: end}}",
    "rule: {kind: call_expression, not: {has: {kind: interpreted_string_literal, stopBy: end}}}",
    "rule: {any: [{pattern: 'return nil'}, {kind: if_statement}]}",
    "rule: {pattern: $F($$$ARGS), has: {kind: argument_list, has: {kind: identifier, nthChild: 2}}}",
    "rule: {matches: printCall, precedes: {kind: return_statement}}\nutils: {printCall: {kind: expression_statement, has: {kind: call_expression, regex: ^fmt}}}",
    "rule: {kind: selector_expression, has: {field: field, pattern: $M}}\nconstraints: {M: {regex: '^Print(f|ln)$'}}",
    "rule: {kind: expression_statement, follows: {kind: if_statement, stopBy: end}}",
  ];
  it.each(rules)("%s", async (rule) => {
    const run = await runs.runIn({ "f.go": source });
    const expected = cliCount(["scan", "--inline-rules", `id: case\nlanguage: go\n${rule}`], runs.workspace().dir);
    const result = await run.call("ast_grep", { rule, language: "go" });
    expect(result.structured?.["total"], resultText(result)).toBe(expected);
    expect(expected).toBeGreaterThan(0);
  });
});
