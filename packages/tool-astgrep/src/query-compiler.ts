import { compilePatternYielding, type CompileOptions, type CompiledPattern } from "./pattern-compiler.js";
import type { LanguageInfo } from "./language-info.js";
import { compilePatternObject } from "./pattern-object.js";
import { compileRule } from "./rule-compiler.js";
import type { SearchQuery } from "./search-request.js";

/** Compile what a search looks for, in one language: a pattern snippet, a pattern object or a rule. */
export async function compileQuery(
  language: LanguageInfo,
  query: SearchQuery,
  signal: AbortSignal | undefined,
  options: CompileOptions = {},
): Promise<CompiledPattern> {
  if (typeof query === "string") return compilePatternYielding(language, query, signal, options);
  if ("rule" in query) return compileRule(language, query.rule);
  return compilePatternObject(language, query);
}

/** The query in a message: "pattern `foo($A)`", "pattern object `{…}`". */
export function describeQuery(query: SearchQuery): string {
  const text = typeof query === "string" ? query.trim() : JSON.stringify("rule" in query ? query.rule.rule : query);
  return `${typeof query === "string" ? "pattern" : "rule" in query ? "rule" : "pattern object"} \`${text.slice(0, 200)}\``;
}
