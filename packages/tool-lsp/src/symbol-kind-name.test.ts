import { SymbolKind } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { declaredKindName, symbolKindName } from "./symbol-kind-name.js";

describe("symbolKindName", () => {
  it("names every kind in words", () => {
    expect(symbolKindName(SymbolKind.Struct)).toBe("struct");
    expect(symbolKindName(SymbolKind.TypeParameter)).toBe("type parameter");
    expect(symbolKindName(99)).toBe("symbol");
  });
});

// The kinds and lines are what the real servers answered for the navigation fixture (issue 25).
describe("declaredKindName", () => {
  it("a TypeScript type alias, which typescript-language-server calls a variable", () => {
    expect(declaredKindName(SymbolKind.Variable, 'export type Unit = "cm" | "in";', "Unit", "typescript")).toBe(
      "type alias",
    );
    expect(
      declaredKindName(SymbolKind.Variable, "type Measure = (shape: Shape) => number;", "Measure", "typescript"),
    ).toBe("type alias");
    expect(declaredKindName(SymbolKind.Variable, "export const type = 1;", "type", "typescript")).toBe("variable");
    expect(declaredKindName(SymbolKind.Interface, "export interface Shape {", "Shape", "typescript")).toBe("interface");
  });

  it("a Python TypeAlias and a 3.12 type statement, which pyright calls variables", () => {
    expect(declaredKindName(SymbolKind.Variable, "Unit: TypeAlias = str", "Unit", "python")).toBe("type alias");
    expect(declaredKindName(SymbolKind.Variable, "type Unit = str", "Unit", "python")).toBe("type alias");
    expect(declaredKindName(SymbolKind.Variable, "units = 3", "units", "python")).toBe("variable");
  });

  it("Go types gopls calls a function or a class, and aliases", () => {
    expect(declaredKindName(SymbolKind.Function, "type Measure func(s Shape) int", "Measure", "go")).toBe("type");
    expect(declaredKindName(SymbolKind.Class, "type Celsius float64", "Celsius", "go")).toBe("type");
    expect(declaredKindName(SymbolKind.Class, "type Degrees = Celsius", "Degrees", "go")).toBe("type alias");
    expect(declaredKindName(SymbolKind.Function, "\tMeasure func(s Shape) int", "Measure", "go")).toBe("type");
    expect(declaredKindName(SymbolKind.Function, "func Scale(value int) int {", "Scale", "go")).toBe("function");
    expect(declaredKindName(SymbolKind.Struct, "type Square struct {", "Square", "go")).toBe("struct");
    expect(declaredKindName(SymbolKind.Class, "type Square struct {", "Square", "go")).toBe("struct");
    expect(declaredKindName(SymbolKind.Class, "type Pair[K comparable] struct {", "Pair", "go")).toBe("struct");
    expect(declaredKindName(SymbolKind.Method, "func (s Square) Area() int {", "(Square).Area", "go")).toBe("method");
  });
});
