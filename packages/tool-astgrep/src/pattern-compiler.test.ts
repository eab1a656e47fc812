import { describe, expect, it } from "vitest";
import { findLanguage, languageTable } from "./language-registry.js";
import { maxPatternDepth } from "./pattern-limits.js";
import {
  compilePattern,
  describeReading,
  metavariableNames,
  tolerantReadingsFoundNothing,
} from "./pattern-compiler.js";

const language = (id: string) => findLanguage(languageTable(), id)!;

describe("compilePattern", () => {
  it("prefers a call over Go's type-conversion reading and names the other reading", () => {
    const compiled = compilePattern(language("go"), "fmt.Println($$$A)");
    expect(compiled.reading.kind).toBe("call_expression");
    expect(compiled.alternatives.map((reading) => reading.kind)).toContain("type_conversion_expression");
  });

  it("reads `a: 1` in JavaScript as an object member, not a label", () => {
    expect(compilePattern(language("javascript"), "a: 1").reading.kind).toBe("pair");
  });

  it("never selects the wrapper: a TypeScript function pattern is read as-is", () => {
    const compiled = compilePattern(language("typescript"), "function $F() {}");
    expect(compiled.reading.context.name).toBe("as-is");
    expect(compiled.reading.kind).toBe("function_declaration");
  });

  it("uses the `;`-terminated statement for Dart calls, which have no call node", () => {
    const compiled = compilePattern(language("dart"), "dispose($X)");
    expect(compiled.reading.kind).toBe("expression_statement");
    expect(compiled.reading.spannedTerminator).toBe(";");
    expect(compiled.reading.literals).toEqual(["dispose"]);
  });

  it("refuses a lone metavariable and a metavariable buried in a token", () => {
    expect(() => compilePattern(language("python"), "$X")).toThrow(/lone metavariable/);
    expect(() => compilePattern(language("python"), "$$$")).toThrow(/lone metavariable/);
    expect(() => compilePattern(language("c"), "#include <$H>")).toThrow(/inside a larger token/);
  });

  it("names each context tried and where it broke", () => {
    expect(() => compilePattern(language("python"), "a +")).toThrow(
      /as-is: syntax error at 1:1.*expression: syntax error at 1:1/,
    );
  });

  it("accepts a UTF-16 heavy snippet", () => {
    expect(compilePattern(language("python"), 'print("😀", $A)').reading.kind).toBe("call");
  });
});

describe("metavariableNames", () => {
  it("separates single and multi captures and ignores non-capturing names", () => {
    expect(metavariableNames("f($A, $$B, $$$C, $_, $_X, $a, x$Y, $A)")).toEqual({ single: ["A", "B"], multi: ["C"] });
  });
});

describe("messages of the compiler", () => {
  it("hints at a lowercase name, a metavariable in a string and one glued to a word, and at nothing in a plain pattern", () => {
    // Python has no `$` in names: ast-grep leaves `$name` as written there, and the pattern does not parse.
    expect(compilePattern(language("typescript"), "foo($name)").hints).toEqual([
      "`$name` is not a metavariable (names are UPPERCASE: `$NAME`); it matches that literal text only.",
    ]);
    expect(compilePattern(language("typescript"), "f('$W')").hints).toEqual([
      "A `$NAME` inside a string literal is literal text, not a metavariable; use `$S` for the whole string.",
    ]);
    expect(compilePattern(language("typescript"), "el.on$EVENT()").hints).toEqual([
      "A `$NAME` glued to other characters (like `on$EVENT`) is literal text, not a metavariable.",
    ]);
    expect(compilePattern(language("typescript"), "foo($A, 'x', y$)").hints).toEqual([]);
  });

  it("says where a context broke: inside the snippet, past its end, before it", () => {
    expect(() => compilePattern(language("python"), "x = = 1")).toThrow(/as-is: syntax error at 1:5: unexpected `=`/);
    expect(() => compilePattern(language("python"), "x = [\n1,,]")).toThrow(
      /as-is: syntax error at 2:3: unexpected `,`/,
    );
    expect(() => compilePattern(language("python"), "x = = 1\ny")).toThrow(
      /as-is: syntax error at 1:5: unexpected `=`/,
    );
    expect(() => compilePattern(language("rust"), "|$A, $B|")).toThrow(
      /impl member: incomplete code before the snippet: missing `}`/,
    );
    expect(() => compilePattern(language("cpp"), "if ($A)")).toThrow(/as-is: incomplete code at 1:8: missing `;`/);
    expect(() => compilePattern(language("typescript"), "foo(")).toThrow(
      /function parameters: syntax error at 1:1: unexpected `foo\(\) \{\}`/,
    );
  });

  it("refuses an empty pattern and only a truly lone metavariable", () => {
    expect(() => compilePattern(language("python"), "  \n ")).toThrow(
      "The pattern is empty. Give a code snippet such as `foo($A)`.",
    );
    expect(compilePattern(language("python"), "return $A").reading.kind).toBe("return_statement");
    expect(compilePattern(language("python"), "$A.b").reading.kind).toBe("attribute");
    expect(compilePattern(language("python"), "$$$A.b").reading.kind).toBe("attribute");
    // Only the whole snippet `$$$` is lone: a snippet ending with it is code around it.
    expect(compilePattern(language("typescript"), "return $$$").reading.kind).toBe("return_statement");
    // Both refusals are the caller's to fix.
    expect(() => compilePattern(language("python"), "")).toThrow(expect.objectContaining({ code: "invalid_input" }));
    expect(() => compilePattern(language("python"), "$$$")).toThrow(expect.objectContaining({ code: "invalid_input" }));
  });

  it("says why a snippet of several statements has no reading, context by context", () => {
    expect(() => compilePattern(language("tsx"), "a;b;c")).toThrow(
      /Tried — as-is: the snippet is several statements or declarations; a pattern must be one syntax node; statement in a function body: parsed, but no single syntax node spans exactly the snippet;/,
    );
  });

  it("keeps a multi-line snippet out of the one-line class-member context", () => {
    const compiled = compilePattern(language("python"), "def $F(self):\n    return $X");
    expect(compiled.reading.context.name).toBe("as-is");
    expect(() => compilePattern(language("python"), "x = [\n1,,]")).toThrow(
      /Tried — as-is: [^;]*; expression: [^;]*; function parameters: /,
    );
  });

  it("names the other readings of a different kind once each", () => {
    const compiled = compilePattern(language("go"), "fmt.Println($$$A)");
    expect(describeReading(compiled)).toBe(
      'read as `call_expression` (context: statement in a function body) in go; it would also parse as `type_conversion_expression` (as-is; pass `pattern` {"context":"fmt.Println($$$A)","selector":"type_conversion_expression"} to search it)',
    );
    expect(describeReading(compilePattern(language("python"), "lambda $X: $Y"))).toBe(
      "read as `lambda` (context: as-is) in python",
    );
    expect(describeReading(compilePattern(language("typescript"), "$A?: string"))).toBe(
      'read as `public_field_definition` (context: class member) in typescript; it would also parse as `optional_parameter` (function parameters; pass `pattern` {"context":"function __w($A?: string) {}","selector":"optional_parameter"} to search it), `property_signature` (interface member; pass `pattern` {"context":"interface __W {\\n$A?: string\\n}","selector":"property_signature"} to search it)',
    );
  });

  it("keeps the longest literal words a match must contain, never punctuation, comments or metavariables", () => {
    expect(compilePattern(language("typescript"), "foo.barBaz($A, /* note */ 12, x)").reading.literals).toEqual([
      "barBaz",
      "foo",
      "12",
    ]);
    expect(compilePattern(language("go"), "if err != nil { return $$$R }").reading.literals).toEqual([
      "return",
      "err",
      "nil",
      "if",
    ]);
    expect(compilePattern(language("python"), "a.b.c.d.e_f.gh").reading.literals).toEqual(["e_f", "gh"]);
    expect(compilePattern(language("typescript"), "alpha.bravo(charlie, delta, echo, fox)").reading.literals).toEqual([
      "charlie",
      "alpha",
      "bravo",
      "delta",
    ]);
    // A PHP metavariable is a node with the leaves `$` and `STR`: neither is a word every match contains.
    expect(compilePattern(language("php"), "strlen($STR)").reading.literals).toEqual(["strlen"]);
  });

  it("refuses a tree nesting exactly one level deeper than the limit, and accepts the limit", () => {
    const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    expect(() => compilePattern(language("json"), nested(maxPatternDepth))).toThrow(/nests more than 256 levels/);
    expect(compilePattern(language("json"), nested(maxPatternDepth - 4)).reading.kind).toBe("array");
  });

  it("names every language searched when a tolerant reading found nothing", () => {
    const rust = compilePattern(language("rust"), "|$A, $B|", { tolerant: true });
    const json = compilePattern(language("json"), "[$A]", { tolerant: true });
    expect(tolerantReadingsFoundNothing([rust, json])?.message).toMatch(
      /^The pattern `\|\$A, \$B\|` does not parse as rust or json code in any context\. Tried — as-is: /,
    );
  });
});
