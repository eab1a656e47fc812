import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { LanguageInfo } from "./language-info.js";

const kindsByLanguage = new Map<string, readonly string[]>();

/**
 * Where a grammar's node types are listed: napi ships one type map per built-in grammar
 * (`lang/TypeScript.d.ts`), and each `@ast-grep/lang-*` package its tree-sitter `src/node-types.json`
 * above the parser library. Both write each kind as `"type": "name"`.
 */
function nodeTypesFile(language: LanguageInfo): string | undefined {
  if (language.libraryPath === undefined) {
    try {
      const file = join(
        dirname(createRequire(import.meta.url).resolve("@ast-grep/napi")),
        "lang",
        `${language.napiLang}.d.ts`,
      );
      return existsSync(file) ? file : undefined;
    } catch {
      return undefined;
    }
  }
  for (
    let directory = dirname(language.libraryPath);
    directory !== dirname(directory);
    directory = dirname(directory)
  ) {
    const file = join(directory, "src", "node-types.json");
    if (existsSync(file)) return file;
    if (existsSync(join(directory, "package.json"))) return undefined;
  }
  return undefined;
}

/** The named node kinds of a grammar, as far as its package (or the engine) lists them (empty when it does not). */
export function grammarKinds(language: LanguageInfo): readonly string[] {
  if (language.kinds !== undefined) return language.kinds;
  let kinds = kindsByLanguage.get(language.id);
  if (kinds === undefined) {
    const file = nodeTypesFile(language);
    const text = file === undefined ? "" : readFileSync(file, "utf8");
    kinds = [...new Set([...text.matchAll(/"type":\s*"([A-Za-z_][A-Za-z0-9_]*)"/g)].map((match) => match[1]!))].sort();
    kindsByLanguage.set(language.id, kinds);
  }
  return kinds;
}

function editDistance(first: string, second: string): number {
  let previous = Array.from({ length: second.length + 1 }, (_, index) => index);
  for (let row = 1; row <= first.length; row++) {
    const current = [row];
    for (let column = 1; column <= second.length; column++) {
      current.push(
        Math.min(
          previous[column]! + 1,
          current[column - 1]! + 1,
          previous[column - 1]! + (first[row - 1] === second[column - 1] ? 0 : 1),
        ),
      );
    }
    previous = current;
  }
  return previous[second.length]!;
}

/** The grammar's kinds closest to a name (by edit distance, then sharing a word), at most `limit`. */
export function kindsNear(language: LanguageInfo, name: string, limit = 5): string[] {
  const words = name
    .toLowerCase()
    .split("_")
    .filter((word) => word.length > 2);
  return grammarKinds(language)
    .map((kind) => ({
      kind,
      distance: editDistance(name.toLowerCase(), kind) - (words.some((word) => kind.includes(word)) ? 2 : 0),
    }))
    .sort((first, second) => first.distance - second.distance || first.kind.localeCompare(second.kind))
    .slice(0, limit)
    .map((entry) => entry.kind);
}

/** "; kinds near it: `call_expression`, `new_expression`" or "" when the grammar lists none. */
export function describeKindsNear(language: LanguageInfo, name: string): string {
  const near = kindsNear(language, name);
  return near.length === 0 ? "" : `; kinds near it in ${language.id}: ${near.map((kind) => `\`${kind}\``).join(", ")}`;
}
