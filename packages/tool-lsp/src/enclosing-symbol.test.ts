import { SymbolKind, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { enclosingSymbol } from "./enclosing-symbol.js";

const symbol = (
  name: string,
  kind: SymbolKind,
  from: number,
  to: number,
  children?: DocumentSymbol[],
): DocumentSymbol => ({
  name,
  kind,
  range: { start: { line: from, character: 0 }, end: { line: to, character: 1 } },
  selectionRange: { start: { line: from, character: 0 }, end: { line: from, character: 1 } },
  ...(children === undefined ? {} : { children }),
});

// Shaped like typescript-language-server's answer for the navigation fixture's shapes.ts (recorded).
const outline = [
  symbol("Square", SymbolKind.Class, 13, 24, [
    symbol("area", SymbolKind.Method, 16, 19, [symbol("raw", SymbolKind.Constant, 17, 17)]),
    symbol("side", SymbolKind.Property, 14, 14),
  ]),
  symbol("scale", SymbolKind.Function, 26, 29, [symbol("factor", SymbolKind.Constant, 27, 27)]),
  symbol("Unit", SymbolKind.Variable, 9, 9),
];

describe("enclosingSymbol", () => {
  it("names the innermost member with its container, not a local of a function", () => {
    expect(enclosingSymbol(outline, 18)).toBe("Square.area");
    expect(enclosingSymbol(outline, 17)).toBe("Square.area");
    expect(enclosingSymbol(outline, 27)).toBe("scale");
    expect(enclosingSymbol(outline, 14)).toBe("Square.side");
    expect(enclosingSymbol(outline, 9)).toBe("Unit");
  });

  it("is undefined at top level", () => {
    expect(enclosingSymbol(outline, 0)).toBeUndefined();
    expect(enclosingSymbol([], 3)).toBeUndefined();
  });

  it("takes the smallest containing range of a flat answer", () => {
    const flat: SymbolInformation[] = [
      {
        name: "Square",
        kind: SymbolKind.Class,
        location: { uri: "file:///a.py", range: { start: { line: 1, character: 0 }, end: { line: 9, character: 0 } } },
      },
      {
        name: "area",
        kind: SymbolKind.Method,
        containerName: "Square",
        location: { uri: "file:///a.py", range: { start: { line: 4, character: 4 }, end: { line: 6, character: 0 } } },
      },
    ];
    expect(enclosingSymbol(flat, 5)).toBe("Square.area");
    expect(enclosingSymbol(flat, 2)).toBe("Square");
  });
});
