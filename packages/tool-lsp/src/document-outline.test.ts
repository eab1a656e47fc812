import { SymbolKind, type DocumentSymbol } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { checkKinds, documentOutline } from "./document-outline.js";

const symbol = (name: string, kind: SymbolKind, line: number, children: DocumentSymbol[] = []): DocumentSymbol => ({
  name,
  kind,
  range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } },
  selectionRange: { start: { line, character: 0 }, end: { line, character: name.length } },
  children,
});

// What pyright answered for the navigation fixture's shop/shapes.py (parameters and locals are children).
const lines = [
  "from typing import TypeAlias",
  "",
  "Unit: TypeAlias = str",
  "",
  "",
  "class Square(Shape):",
  "    def __init__(self, side: float) -> None:",
  "        self.side = side",
  "",
  "def scale(value: float, factor: float = 1.0) -> float:",
  "    result = value * factor",
];
const pyright = [
  symbol("Unit", SymbolKind.Variable, 2),
  symbol("Square", SymbolKind.Class, 5, [
    symbol("__init__", SymbolKind.Method, 6, [symbol("side", SymbolKind.Variable, 6)]),
    symbol("side", SymbolKind.Variable, 7),
  ]),
  symbol("scale", SymbolKind.Function, 9, [
    symbol("value", SymbolKind.Variable, 9),
    symbol("factor", SymbolKind.Variable, 9),
    symbol("result", SymbolKind.Variable, 10),
  ]),
];

describe("documentOutline", () => {
  it("shows the top level and members, names the type alias, and counts the parameters and locals left out", () => {
    expect(documentOutline(pyright, lines, "python")).toEqual({
      rows: [
        "type alias Unit — line 3",
        "class Square — line 6",
        "  method __init__ — line 7",
        "  variable side — line 8",
        "function scale — line 10",
      ],
      deeper: 4,
    });
  });

  it("`depth` goes deeper, parameters and locals included, or stays at the top level", () => {
    expect(documentOutline(pyright, lines, "python", { depth: 3 }).rows).toContain("    variable side — line 7");
    expect(documentOutline(pyright, lines, "python", { depth: 2 }).rows).toContain("  variable result — line 11");
    expect(documentOutline(pyright, lines, "python", { depth: 1 })).toEqual({
      rows: ["type alias Unit — line 3", "class Square — line 6", "function scale — line 10"],
      deeper: 6,
    });
  });

  it("`kinds` keeps those kinds, each naming its container", () => {
    expect(documentOutline(pyright, lines, "python", { kinds: ["method", "type alias"] }).rows).toEqual([
      "type alias Unit — line 3",
      "method __init__ (in Square) — line 7",
    ]);
  });

  it("refuses a kind that does not exist, listing those that do", () => {
    expect(checkKinds(["Class", " type alias"])).toEqual(["class", "type alias"]);
    expect(() => checkKinds(["classes"])).toThrow(
      /`classes`, which is no symbol kind\. Use some of: file, module, .*struct.*type alias, type\./,
    );
  });
});
