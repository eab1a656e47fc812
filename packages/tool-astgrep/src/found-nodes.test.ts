import { describe, expect, it } from "vitest";
import { materialize, sortFound, withSyntaxErrors } from "./found-nodes.js";
import { findLanguage, languageTable } from "./language-registry.js";
import { napi } from "./napi-binding.js";
import { compilePattern } from "./pattern-compiler.js";

function sorted(languageId: string, pattern: string, source: string, rewriting: boolean) {
  const compiled = compilePattern(findLanguage(languageTable(), languageId)!, pattern, { tolerant: true });
  const found = napi().parse(compiled.language.napiLang, source).root().findAll(withSyntaxErrors(compiled, rewriting));
  const { matches, errors, missing } = sortFound(found, compiled);
  const describe = (nodes: readonly { kind(): unknown; text(): string }[]) =>
    nodes.map((node) => `${String(node.kind())} ${node.text()}`);
  return { matches: describe(matches), errors: describe(errors), missing: missing.length };
}

describe("sortFound", () => {
  it("tells the matches of an ERROR reading, of any kind, from the file's own ERROR nodes", () => {
    const found = sorted("cpp", "struct $A: $B", "struct A: B {};\nstruct E {};\nint broken( = ;\n", true);
    expect(found.matches).toEqual(["struct_specifier struct A: B {}"]);
    expect(found.errors).toHaveLength(1);
    expect(found.errors[0]).toMatch(/^ERROR /);
    expect(found.missing).toBe(0);
  });

  it("counts an ERROR node that matches an ERROR reading both as a match and as a syntax error", () => {
    const found = sorted("go", "print('123')", "package main\nprint('123')\n", false);
    expect(found.matches).toEqual(["ERROR print('123')"]);
    expect(found.errors).toContain("ERROR print('123')");
  });

  it("sorts a MISSING node out of an ERROR reading's matches when rewriting", () => {
    // `f(1` lacks its `)`: the parser assumes one (a zero-width node), which is no match.
    const found = sorted("typescript", "foo(", "const a = f(1;\nfoo(\n", true);
    expect(found.matches).toEqual(["ERROR foo("]);
    expect(found.missing).toBe(1);
  });

  it("sorts a plain reading's nodes by kind", () => {
    const found = sorted("typescript", "f($A)", "f(1);\nconst a = f(2;\n", true);
    expect(found.matches).toEqual(["call_expression f(1)", "call_expression f(2"]);
    expect(found.missing).toBe(1);
  });

  it("keeps a file's ERROR nodes out of its MISSING ones", () => {
    const found = sorted("typescript", "f($A)", "f(1);\nconst a = f(2;\nlet = = ;\n", true);
    expect(found.errors).toHaveLength(1);
    expect(found.missing).toBe(1);
  });

  it("takes the zero-width root of an empty file for no MISSING token", () => {
    expect(sorted("typescript", "f($A)", "", true)).toEqual({ matches: [], errors: [], missing: 0 });
    expect(sorted("typescript", "foo(", "", true)).toEqual({ matches: [], errors: [], missing: 0 });
  });
});

describe("materialize", () => {
  function materialized(languageId: string, pattern: string, source: string) {
    const compiled = compilePattern(findLanguage(languageTable(), languageId)!, pattern);
    const node = napi().parse(compiled.language.napiLang, source).root().find(compiled.matcher)!;
    return materialize(node, "/w/a", compiled, false);
  }

  it("gives single and multi captures with their spans, and an empty multi capture no span", () => {
    const match = materialized("typescript", "g($A, $$$REST)", "x; g(1, 2, 3);");
    expect(match).toMatchObject({
      path: "/w/a",
      language: "typescript",
      line: 0,
      column: 3,
      start: 3,
      end: 13,
      text: "g(1, 2, 3)",
    });
    expect(match.captures).toEqual({
      A: { text: "1", start: 5, end: 6, multi: false },
      REST: { text: "2, 3", start: 8, end: 12, multi: true },
    });
    expect(materialized("typescript", "g($$$ARGS)", "g();").captures).toEqual({
      ARGS: { text: "", start: -1, end: -1, multi: true },
    });
  });

  it("carries the terminator a reading spans, and none otherwise", () => {
    expect(materialized("dart", "dispose($X)", "void f() { dispose(a); }").terminator).toBe(";");
    expect("terminator" in materialized("typescript", "dispose($X)", "dispose(a);")).toBe(false);
  });
});
