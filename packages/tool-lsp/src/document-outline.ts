import { ToolError } from "@runbound/tool-kit";
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import { CALLABLE_KINDS } from "./enclosing-symbol.js";
import { declaredKindName, symbolKindName } from "./symbol-kind-name.js";

/** How much of a file's outline `symbols` shows. */
export interface OutlineOptions {
  /** Levels to show (1 = top level only). Without it: top level and members, no parameters or locals. */
  depth?: number;
  /** Kind names to keep (`class`, `method`, `type alias`…); a kept symbol's containers are named, not listed. */
  kinds?: readonly string[];
}

/** An outline's rows and what it left out. */
export interface Outline {
  rows: string[];
  /** Symbols below the depth shown, or parameters and locals, left out. */
  deeper: number;
}

/** Levels shown when `depth` is not given. */
export const DEFAULT_OUTLINE_DEPTH = 2;

/** The kind names `kinds` accepts. */
export const KIND_NAMES: readonly string[] = [
  ...Object.values(SymbolKind)
    .filter((kind): kind is SymbolKind => typeof kind === "number")
    .map(symbolKindName),
  "type alias",
  "type",
];

/** @throws ToolError `invalid_input` naming the kinds that exist. */
export function checkKinds(kinds: readonly string[]): string[] {
  const wanted = kinds.map((kind) => kind.trim().toLowerCase());
  const unknown = wanted.filter((kind) => !KIND_NAMES.includes(kind));
  if (unknown.length > 0) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`kinds\` has ${unknown.map((kind) => `\`${kind}\``).join(", ")}, which is no symbol kind. Use some of: ${KIND_NAMES.join(", ")}.`,
    });
  }
  return wanted;
}

const startLine = (symbol: DocumentSymbol): number =>
  symbol.selectionRange?.start?.line ?? symbol.range?.start?.line ?? 0;
const countAll = (symbols: readonly DocumentSymbol[] | undefined): number =>
  (symbols ?? []).reduce((sum, symbol) => sum + 1 + countAll(symbol.children), 0);

/**
 * A file's outline from its document symbols, top to bottom: nested by indentation, or, with
 * `kinds`, one row per kept symbol with `(in Container)`. Kind names come from the declaration's
 * line (see {@link declaredKindName}).
 */
export function documentOutline(
  symbols: readonly DocumentSymbol[] | readonly SymbolInformation[],
  lines: readonly string[],
  language: string,
  options: OutlineOptions = {},
): Outline {
  const kinds = options.kinds === undefined || options.kinds.length === 0 ? undefined : new Set(options.kinds);
  const rows: string[] = [];
  let deeper = 0;
  if (symbols.length > 0 && "location" in (symbols[0] as object)) {
    for (const item of symbols as readonly SymbolInformation[]) {
      const line = item.location?.range?.start?.line ?? -1;
      const kind = declaredKindName(item.kind, lines[line], item.name, language);
      if (kinds !== undefined && !kinds.has(kind)) continue;
      rows.push(`${kind} ${item.name}${item.containerName ? ` (in ${item.containerName})` : ""} — line ${line + 1}`);
    }
    return { rows, deeper };
  }
  const depth = options.depth ?? DEFAULT_OUTLINE_DEPTH;
  const walk = (level: readonly DocumentSymbol[], at: number, containers: string[]): void => {
    // Servers answer in their own order (typescript-language-server: by name); an outline reads top to bottom.
    for (const symbol of [...level].sort((a, b) => startLine(a) - startLine(b))) {
      if (typeof symbol?.name !== "string") continue;
      const line = startLine(symbol);
      const kind = declaredKindName(symbol.kind, lines[line], symbol.name, language);
      const detail = symbol.detail ? ` ${symbol.detail}` : "";
      if (kinds === undefined) rows.push(`${"  ".repeat(at)}${kind} ${symbol.name}${detail} — line ${line + 1}`);
      else if (kinds.has(kind))
        rows.push(
          `${kind} ${symbol.name}${detail}${containers.length === 0 ? "" : ` (in ${containers.join(".")})`} — line ${line + 1}`,
        );
      const children = Array.isArray(symbol.children) ? symbol.children : [];
      // A function's children are its parameters and locals: shown only when `depth` asks for them.
      const hidden = at + 1 >= depth || (options.depth === undefined && CALLABLE_KINDS.has(symbol.kind));
      if (hidden) deeper += countAll(children);
      else walk(children, at + 1, [...containers, symbol.name]);
    }
  };
  walk(symbols as readonly DocumentSymbol[], 0, []);
  return { rows, deeper };
}
