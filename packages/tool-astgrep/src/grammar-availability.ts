import { ToolError } from "@runbound/tool-kit";
import { statSync } from "node:fs";
import {
  canonicalLanguageId,
  engineGrammars,
  grammarPackageName,
  isEngineGrammar,
  packagedGrammars,
  type PackagedGrammar,
} from "./grammar-catalog.js";
import type { GrammarSource, LanguageInfo } from "./language-info.js";
import { availableLanguageIds, extensionOf, languageOfPath, type LanguageTable } from "./language-registry.js";

/** Why a known grammar is not offered by this table, as the error to answer; none when it is offered or unknown. */
function missingGrammarError(table: LanguageTable, id: string): ToolError | undefined {
  const installable = table.installable.find((entry) => entry.id === id);
  if (installable !== undefined) {
    const engine =
      installable.engineMissing === undefined
        ? ""
        : ` It is built into the native engine (@runbound/astgrep-engine), which is not loaded here (${installable.engineMissing}); without the engine it comes from its package.`;
    return new ToolError({
      code: "unavailable",
      message: `The \`${id}\` grammar is not installed.${engine} Install it next to @runbound/tool-astgrep with \`npm install ${installable.packageName}\` and start the program again; until then search one of: ${availableLanguageIds(table).join(", ")}.`,
    });
  }
  if (table.notSelected.includes(id)) {
    return new ToolError({
      code: "invalid_input",
      message: `The \`${id}\` grammar is installed but this parser leaves it out: its \`languages\` setting does not name it. Add \`"${id}"\` to \`createAstGrepParser({ languages })\`, or search one of: ${availableLanguageIds(table).join(", ")}.`,
    });
  }
  const unavailable = table.unavailable.find((entry) => entry.id === id);
  if (unavailable !== undefined) {
    const way =
      unavailable.needsEngine === true ? ` Until then search one of: ${availableLanguageIds(table).join(", ")}.` : "";
    return new ToolError({
      code: "unavailable",
      message: `The \`${id}\` grammar cannot be used here: ${unavailable.reason}${way}`,
    });
  }
  return undefined;
}

/**
 * The language with this id or alias if the table offers it; undefined for a name no grammar has.
 * @throws ToolError `unavailable` for a known grammar that is not installed (naming the package to
 * install) or cannot load here, `invalid_input` for one the parser's `languages` setting leaves out.
 */
export function offeredLanguage(table: LanguageTable, name: string): LanguageInfo | undefined {
  const id = canonicalLanguageId(name);
  const info = table.available.get(id);
  if (info !== undefined) return info;
  const missing = missingGrammarError(table, id);
  if (missing !== undefined) throw missing;
  return undefined;
}

/** Every grammar known by id: the `@ast-grep/lang-*` packages, then the native engine's own. */
const knownGrammars: readonly PackagedGrammar[] = [...packagedGrammars, ...engineGrammars];

/**
 * For a search of one file without `language`: when no offered grammar reads the file's extension
 * but a known one would, fail saying how to get that grammar, instead of "cannot be inferred".
 * @throws ToolError as {@link offeredLanguage} does.
 */
export function assertGrammarForFile(table: LanguageTable, path: string): void {
  const grammar = missingGrammarOfPath(table, path);
  if (grammar === undefined) return;
  try {
    if (!statSync(path).isFile()) return;
  } catch {
    return; // The search itself reports a path that does not exist.
  }
  const missing = missingGrammarError(table, grammar);
  if (missing !== undefined) throw missing;
}

/**
 * The id of the known grammar that would read this file when no grammar the table offers does, e.g.
 * `go` for `main.go` without @ast-grep/lang-go: a search can name what to install for files it skipped.
 */
export function missingGrammarOfPath(table: LanguageTable, path: string): string | undefined {
  const extension = extensionOf(path);
  if (extension === undefined || languageOfPath(table, path) !== undefined) return undefined;
  return knownGrammars.find(
    (candidate) => candidate.extensions.includes(extension) || candidate.extraExtensions?.includes(extension) === true,
  )?.id;
}

/** Whether a directory search without `language` would read this known grammar's files (not data or markup). */
export function searchedByDefaultGrammar(id: string): boolean {
  return knownGrammars.some((candidate) => candidate.id === id && candidate.searchedByDefault);
}

const sourceLabels: Record<GrammarSource, string> = {
  napi: "built into @ast-grep/napi",
  package: "@ast-grep/lang-* packages",
  host: "grammar modules handed in",
  engine: "built into the native engine (unavailable without it)",
};
/** The engine's copies of packaged grammars (C++, Bash, Rust, C, PHP), which have a package to fall back on. */
const engineCopyLabel = "built into the native engine (their @ast-grep/lang-* packages without it)";

/**
 * One status line: the grammars offered by where they come from, those one `npm install` away, the
 * installed packages the native engine's copies replace, those that need the native engine when it is
 * not loaded, and those that failed.
 */
export function describeLanguageTable(table: LanguageTable): string {
  const bySource = new Map<string, string[]>();
  for (const info of table.available.values()) {
    const label = info.source === "engine" && !isEngineGrammar(info.id) ? engineCopyLabel : sourceLabels[info.source];
    bySource.set(label, [...(bySource.get(label) ?? []), info.id]);
  }
  const sources = [...bySource].map(([label, ids]) => `${label}: ${ids.join(", ")}`);
  const parts = [`${table.available.size} grammars${sources.length === 0 ? "" : ` — ${sources.join("; ")}`}`];
  if (table.installable.length > 0) {
    parts.push(
      `installable: ${table.installable.map((entry) => entry.id).join(", ")} (npm install @ast-grep/lang-<id>)`,
    );
  }
  if (table.notSelected.length > 0)
    parts.push(`installed, not in this parser's languages: ${table.notSelected.join(", ")}`);
  const replaced = table.replacedByEngine ?? [];
  if (replaced.length > 0)
    parts.push(
      `installed, not used (the native engine's copy, the ast-grep CLI's grammar, is): ${replaced.map(grammarPackageName).join(", ")}`,
    );
  const needEngine = table.unavailable.filter((entry) => entry.needsEngine === true);
  if (needEngine.length > 0)
    parts.push(
      `unavailable without the native engine: ${needEngine.map((entry) => entry.id).join(", ")} (${needEngine[0]!.reason})`,
    );
  const failed = table.unavailable.filter((entry) => entry.needsEngine !== true);
  if (failed.length > 0)
    parts.push(`unavailable: ${failed.map((entry) => `${entry.id} (${entry.reason})`).join("; ")}`);
  return parts.join("; ");
}
