import { SymbolKind } from "vscode-languageserver-protocol";

const names = new Map<number, string>(Object.entries(SymbolKind as Record<string, unknown>).flatMap(([name, value]) => (typeof value === "number" ? [[value, name.toLowerCase()] as const] : [])));

/** The lowercase name of an LSP symbol kind (`function`, `class`…), or `symbol` for an unknown number. */
export function symbolKindName(kind: unknown): string {
  return (typeof kind === "number" ? names.get(kind) : undefined) ?? "symbol";
}
