import { describe, expect, it } from "vitest";
import { findLanguage, languageTable } from "./language-registry.js";
import { compilePattern, metavariableNames } from "./pattern-compiler.js";

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
    expect(() => compilePattern(language("python"), "a +")).toThrow(/as-is: syntax error at 1:1.*expression: syntax error at 1:1/);
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
