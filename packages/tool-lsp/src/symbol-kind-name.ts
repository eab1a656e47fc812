import { SymbolKind } from "vscode-languageserver-protocol";

const names = new Map<number, string>(
  Object.entries(SymbolKind as Record<string, unknown>).flatMap(([name, value]) =>
    typeof value === "number" ? [[value, name.toLowerCase()] as const] : [],
  ),
);
names.set(SymbolKind.TypeParameter, "type parameter");
names.set(SymbolKind.EnumMember, "enum member");

/** The lowercase name of an LSP symbol kind (`function`, `class`, `enum member`…), or `symbol` for an unknown number. */
export function symbolKindName(kind: unknown): string {
  return (typeof kind === "number" ? names.get(kind) : undefined) ?? "symbol";
}

const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The kind name of a declaration, corrected from its source line where servers have no kind for it:
 * typescript-language-server and pyright call a type alias (`type Unit = …`, `Unit: TypeAlias = …`)
 * a variable, gopls calls `type Measure func(…)` a function and `type Celsius float64` a class.
 * `language` is the server's id (`typescript`, `python`, `go`, …).
 */
export function declaredKindName(kind: unknown, lineText: string | undefined, name: string, language: string): string {
  const named = symbolKindName(kind);
  if (lineText === undefined || kind === SymbolKind.Struct || kind === SymbolKind.Interface || kind === SymbolKind.Enum)
    return named;
  const typeKeyword = new RegExp(`(^|[\\s(])type\\s+${escape(name)}\\b`).test(lineText);
  if (language === "go") {
    const declared = new RegExp(`type\\s+${escape(name)}(?:\\[[^\\]]*\\])?\\s*(=|struct\\b|interface\\b)?`).exec(
      lineText,
    );
    // gopls's type hierarchy calls a struct a class; its outline says struct.
    if (typeKeyword)
      return declared?.[1] === "="
        ? "type alias"
        : declared?.[1] === "struct"
          ? "struct"
          : declared?.[1] === "interface"
            ? "interface"
            : "type";
    // Inside a `type ( … )` group the line has no keyword: a function is declared by `func`.
    if (kind === SymbolKind.Function && !/^\s*func\b/.test(lineText)) return "type";
    return named;
  }
  if (kind === SymbolKind.Variable || kind === SymbolKind.Constant || kind === SymbolKind.Class) {
    if (typeKeyword || new RegExp(`^\\s*${escape(name)}\\s*:\\s*(typing\\.)?TypeAlias\\b`).test(lineText))
      return "type alias";
  }
  return named;
}
