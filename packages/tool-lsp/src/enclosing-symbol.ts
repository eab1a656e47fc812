import { SymbolKind, type DocumentSymbol, type Range, type SymbolInformation } from "vscode-languageserver-protocol";

/** Kinds whose children are parameters and locals, not members: a reference inside one is "in" it. */
export const CALLABLE_KINDS: ReadonlySet<number> = new Set([
  SymbolKind.Function,
  SymbolKind.Method,
  SymbolKind.Constructor,
]);

const contains = (range: Range | undefined, line: number): boolean =>
  typeof range?.start?.line === "number" &&
  typeof range.end?.line === "number" &&
  range.start.line <= line &&
  line <= range.end.line;

function innermost(symbols: readonly DocumentSymbol[], line: number, path: string[]): string[] {
  for (const symbol of symbols) {
    if (typeof symbol?.name !== "string" || !contains(symbol.range, line)) continue;
    const here = [...path, symbol.name];
    if (CALLABLE_KINDS.has(symbol.kind) || !Array.isArray(symbol.children)) return here;
    return innermost(symbol.children, line, here);
  }
  return path;
}

/**
 * The name of the symbol a 0-based line lies in, from a document-symbol answer: the innermost
 * declaration that is not a function's parameter or local, with its containers (`Square.area`);
 * undefined at top level. Flat `SymbolInformation[]` answers name the smallest containing range.
 */
export function enclosingSymbol(
  symbols: readonly DocumentSymbol[] | readonly SymbolInformation[],
  line: number,
): string | undefined {
  if (symbols.length > 0 && "location" in (symbols[0] as object)) {
    const containing = (symbols as readonly SymbolInformation[]).filter(
      (symbol) => typeof symbol?.name === "string" && contains(symbol.location?.range, line),
    );
    const size = (symbol: SymbolInformation): number =>
      symbol.location.range.end.line - symbol.location.range.start.line;
    const smallest = containing.sort((a, b) => size(a) - size(b))[0];
    return smallest === undefined
      ? undefined
      : smallest.containerName
        ? `${smallest.containerName}.${smallest.name}`
        : smallest.name;
  }
  const path = innermost(symbols as readonly DocumentSymbol[], line, []);
  return path.length === 0 ? undefined : path.join(".");
}
