import { resultText } from "@runbound/tool-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParserRun } from "./__fixtures__/create-parser-run.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { findLanguage, languageTable } from "./language-registry.js";
import { napi } from "./napi-binding.js";
import {
  assertTolerantReadingsFound,
  compilePattern,
  describeReading,
  substituteMetavariables,
  tolerantReadingsFoundNothing,
  type CompiledPattern,
} from "./pattern-compiler.js";

// Patterns ast-grep itself matches that an earlier compiler refused or read with another meaning.
const language = (id: string) => findLanguage(languageTable(), id)!;
let workspace: TempWorkspace;
let fileCount = 0;
beforeAll(async () => {
  workspace = await createTempWorkspace();
});
afterAll(() => workspace.cleanup());

/** The texts napi matches with a compiled pattern in `source`: the matcher a search runs, on one parsed text. */
function matchedTexts(compiled: CompiledPattern, source: string): string[] {
  return napi()
    .parse(compiled.language.napiLang, source)
    .root()
    .findAll(compiled.matcher)
    .map((node) => node.text());
}

const tolerant = { tolerant: true };

async function search(extension: string, source: string, pattern: string) {
  const file = `case-${fileCount++}.${extension}`;
  await workspace.write(file, source);
  const result = await createParserRun(workspace.dir).call("ast_grep", { pattern, path: file });
  expect(result.isError, resultText(result)).toBeUndefined();
  return { total: result.structured?.["total"], text: resultText(result) };
}

describe("metavariables of grammars where `$` is no identifier character", () => {
  it("CSS: `$NAME` in a value, a property and a selector", async () => {
    const source = ".btn { color: red; }\n.nav { margin: 0; color: blue; }\n";
    expect((await search("css", source, ".btn { color: $C; }")).total).toBe(1);
    expect((await search("css", source, "$SEL { margin: 0; color: $C; }")).total).toBe(1);
    expect((await search("css", source, ".nav { $P: blue; }")).total).toBe(0);
  });

  it("HTML: a tag name metavariable, repeated in the closing tag", async () => {
    const source = '<div><p class="x">hi</p><span class="x"></span><p class="y">no</p></div>\n';
    const found = await search("html", source, '<$TAG class="x">$$$BODY</$TAG>');
    expect(found.total, found.text).toBe(2);
  });

  it("substitutes only the `$` that starts a metavariable, as ast-grep does", () => {
    expect(substituteMetavariables("f($A, $$B, $$$C, $$$, $_, '$5', $a, $)", "µ")).toBe(
      "f(µA, µµB, µµµC, µµµ, µ_, '$5', $a, $)",
    );
    expect(substituteMetavariables("$$$", "_")).toBe("___");
    expect(substituteMetavariables("cost$$", "_")).toBe("cost$$");
    expect(substituteMetavariables("$A", "$")).toBe("$A");
  });
});

describe("readings ast-grep could not match against the pattern's own text", () => {
  it("Python: a raw string with a literal `\\$` matches itself", async () => {
    const found = await search("py", "ok = re.match(r'^\\w+\\$', s)\nother = r'^\\w+'\n", "r'^\\w+\\$'");
    expect(found.total, found.text).toBe(1);
  });

  it("JSON: `[$A]` matches a one-element array, and the reading says it is not clean", () => {
    const compiled = compilePattern(language("json"), "[$A]", tolerant);
    expect(matchedTexts(compiled, '{"a": [1], "b": [1, 2], "c": ["x"]}')).toEqual(["[1]", '["x"]']);
    expect(describeReading(compiled)).toMatch(
      /^read as `array` \(context: as-is\) in json; no context reads it cleanly \(ast-grep cannot match the reading `array` against itself\), so this is ast-grep's best tolerant reading/,
    );
    expect(() => compilePattern(language("json"), "[$A]")).toThrow(/cannot match the reading `array` against itself/);
  });
});

describe("tolerant readings: no context parses the pattern cleanly", () => {
  it("Rust closure parameters `|$A, $B|` match, with a note that the pattern parsed with errors", () => {
    const compiled = compilePattern(language("rust"), "|$A, $B|", tolerant);
    expect(
      matchedTexts(compiled, "fn main() { let s = v.iter().fold(0, |acc, x| acc + x); let t = v.map(|x| x); }"),
    ).toEqual(["|acc, x|"]);
    const described = describeReading(compiled);
    expect(described).toMatch(
      /it parsed with errors \(syntax error at 1:1: unexpected `\|\$A, \$B\|`\), so this is ast-grep's best tolerant reading/,
    );
    expect(described).toContain("Contexts tried — as-is:");
    expect(() => compilePattern(language("rust"), "|$A, $B|")).toThrow(/does not parse as rust code in any context/);
    // Only the as-is reading is ast-grep's: TypeScript `foo(` would be read as `foo(;` with a missing
    // `)` in the `;`-added context and match `foo(1)`, which ast-grep does not; as written it is an
    // ERROR node that matches only the same broken code, as in the ast-grep CLI.
    const unclosed = compilePattern(language("typescript"), "foo(", tolerant);
    expect(matchedTexts(unclosed, "foo(1);\nbar(2);\n")).toEqual([]);
    expect(matchedTexts(unclosed, "foo(1);\nfoo(\n")).toEqual(["foo("]);
  });

  it("C++ block of a condition with an unterminated `$$$BODY` matches", () => {
    const compiled = compilePattern(language("cpp"), "if (ready) { $$$BODY }", tolerant);
    expect(matchedTexts(compiled, "void f() { if (ready) { go(); stop(); } if (other) { go(); } }")).toEqual([
      "if (ready) { go(); stop(); }",
    ]);
  });

  it("a tolerant reading that finds nothing is refused as unparseable, naming the contexts tried", () => {
    const compiled = compilePattern(language("rust"), "|$A, $B|", tolerant);
    expect(compiled.reading.tolerance?.kind).toBe("errors");
    const refusal = tolerantReadingsFoundNothing([compiled]);
    expect(refusal?.code).toBe("invalid_input");
    expect(refusal?.message).toMatch(
      /^The pattern `\|\$A, \$B\|` does not parse as rust code in any context\. Tried — as-is: .*its best tolerant reading, `closure_parameters` \(.*\), found nothing\./,
    );
    // So is an ERROR reading that finds nothing.
    const errorNode = compilePattern(language("go"), "print('123')", tolerant);
    expect(tolerantReadingsFoundNothing([errorNode])?.message).toMatch(
      /^The pattern `print\('123'\)` does not parse as go code in any context\. Tried — as-is: syntax error at 1:1: .*its best tolerant reading, `ERROR` \(as-is\), found nothing\./,
    );
  });

  it("the tools' one check refuses only a zero from tolerant readings alone", () => {
    const tolerantOne = compilePattern(language("rust"), "|$A, $B|", tolerant);
    const clean = compilePattern(language("rust"), "$X.unwrap()");
    expect(() => assertTolerantReadingsFound({ total: 0, compiled: [tolerantOne] })).toThrow(
      /^The pattern `\|\$A, \$B\|` does not parse as rust code in any context\..*found nothing\. Write one complete/s,
    );
    expect(() => assertTolerantReadingsFound({ total: 1, compiled: [tolerantOne] })).not.toThrow();
    expect(() => assertTolerantReadingsFound({ total: 0, compiled: [tolerantOne, clean] })).not.toThrow();
  });

  it("a clean reading in any searched language keeps the zero-match answer", () => {
    const clean = compilePattern(language("rust"), "$X.unwrap()");
    const tolerantOne = compilePattern(language("rust"), "|$A, $B|", tolerant);
    expect(clean.tolerant).toBeUndefined();
    expect(tolerantReadingsFoundNothing([clean])).toBeUndefined();
    expect(tolerantReadingsFoundNothing([tolerantOne, clean])).toBeUndefined();
    expect(tolerantReadingsFoundNothing([])).toBeUndefined();
    expect(describeReading(clean)).not.toContain("tolerant");
  });

  it("a clean reading wins over a tolerant one, and a clean unverified one over one with errors", () => {
    expect(compilePattern(language("json"), "[$A]", tolerant).reading.tolerance?.kind).toBe("unverified");
    expect(compilePattern(language("rust"), "let $A = $B;", tolerant).reading.tolerance).toBeUndefined();
  });
});

describe("tolerant readings that are an ERROR node, as ast-grep reads the snippet as written", () => {
  it("Go `print('123')` (a rune literal too long) matches the same code and nothing else", () => {
    const compiled = compilePattern(language("go"), "print('123')", tolerant);
    expect(compiled.reading).toMatchObject({ kind: "ERROR", anyKind: true, tolerance: { kind: "errors" } });
    expect(compiled.matcher).toEqual({ rule: { pattern: "print('123')" } });
    expect(matchedTexts(compiled, "package main\nfunc main() { print(\"123\") }\nprint('123')\n")).toEqual([
      "print('123')",
    ]);
    expect(describeReading(compiled)).toMatch(
      /^read as an ERROR node \(context: as-is\) in go, which ast-grep matches against code of any kind with the same parts; it parsed with errors \(syntax error at 1:1: unexpected `print\('123'\)`\)/,
    );
    // Without tolerance it stays refused.
    expect(() => compilePattern(language("go"), "print('123')")).toThrow(
      /does not parse as go code in any context\. Tried — as-is: syntax error at 1:1/,
    );
  });

  it("C++ `struct $A: $B` and `template <typename $T>` match the declarations they begin", () => {
    const source =
      "template <typename T>\nT twice(T x) { return x + x; }\nstruct A: B {};\nclass C: public D {};\nstruct E {};\n";
    const struct = compilePattern(language("cpp"), "struct $A: $B", tolerant);
    expect(matchedTexts(struct, source)).toEqual(["struct A: B {}"]);
    expect(struct.reading.literals).toEqual(["struct"]);
    const template = compilePattern(language("cpp"), "template <typename $T>", tolerant);
    expect(matchedTexts(template, source)).toEqual(["template <typename T>\nT twice(T x) { return x + x; }"]);
    expect(template.reading.literals).toEqual(["template", "typename"]);
  });

  it("an ERROR reading napi cannot take or that cannot find its own text is no reading", () => {
    // napi refuses Ruby `case 1:` as a bare pattern ("Multiple AST nodes are detected"): a refusal naming the contexts, not napi's error.
    expect(() => compilePattern(language("ruby"), "case 1:", tolerant)).toThrow(
      /^The pattern `case 1:` does not parse as ruby code in any context\. Tried — as-is: syntax error at 1:1/,
    );
    // JavaScript reads `template <typename $T>` as an ERROR node that napi does not find in that very text.
    expect(() => compilePattern(language("javascript"), "template <typename $T>", tolerant)).toThrow(
      /does not parse as javascript code in any context/,
    );
    // A lone `)` goes down to a leaf, which is no ERROR node.
    expect(() => compilePattern(language("typescript"), ")", tolerant)).toThrow(
      /^The pattern `\)` does not parse as typescript code in any context/,
    );
  });

  it("a metavariable buried in a token of the ERROR node gives no reading", () => {
    // `'$A'` is one (broken) rune literal: ast-grep would read `$A` as text there.
    expect(() => compilePattern(language("go"), "print('$A')", tolerant)).toThrow(
      /does not parse as go code in any context/,
    );
  });
});

describe("contexts that would change the pattern's meaning", () => {
  it("C++ `if ($A)` is an `if` with a statement body, not one with an empty body, nor a call of `if`", () => {
    const compiled = compilePattern(language("cpp"), "if ($A)", tolerant);
    expect(compiled.reading.kind).toBe("if_statement");
    expect(compiled.reading.context.name).toBe("as-is");
    // The ast-grep CLI finds the same one match: its reading has a (missing) statement as the body.
    expect(matchedTexts(compiled, "void f() { if (a | b) g(); if (c) { h(); } while (d) g(); }")).toEqual([
      "if (a | b) g();",
    ]);
    // Without tolerance it is refused, never read as an `if` with an empty body.
    expect(() => compilePattern(language("cpp"), "if ($A)")).toThrow(/does not parse as cpp code/);
    // An added `;` that is the statement's own terminator still gives a reading (Dart call statements).
    expect(compilePattern(language("dart"), "dispose($X)").reading.spannedTerminator).toBe(";");
  });

  it("names the keyword a context would read as a name", () => {
    // Every context of `if ($A)` is reported; the expression context's verdict names the keyword.
    const compiled = compilePattern(language("cpp"), "if ($A)", tolerant);
    expect(compiled.tolerant?.tried).toContain(
      "expression: the keyword `if` is read as a name here, which changes the pattern's meaning",
    );
    expect(compiled.tolerant?.tried).toContain(
      "statement in a function body (`;` added): the added `;` is read as code of its own inside `if_statement`",
    );
  });
});
