import { astGrepKindOf } from "./ast-grep-reading.js";
import type { LanguageInfo } from "./language-info.js";
import { metavariableNames } from "./metavariable-text.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import { checkRule } from "./rule-check.js";
import { withRewriters } from "./rule-rewriters.js";
import { isRecord, type RuleQuery } from "./rule-text.js";

/** Every `pattern` of a rule (a string, or a pattern object's context), in the order written. */
function patternsOf(
  value: unknown,
  found: Array<{ text: string; selector?: string }>,
): Array<{ text: string; selector?: string }> {
  if (Array.isArray(value)) {
    for (const item of value) patternsOf(item, found);
  } else if (isRecord(value)) {
    for (const [key, field] of Object.entries(value)) {
      if (key === "pattern" && typeof field === "string") found.push({ text: field });
      else if (key === "pattern" && isRecord(field) && typeof field["context"] === "string") {
        found.push({
          text: field["context"],
          ...(typeof field["selector"] === "string" ? { selector: field["selector"] } : {}),
        });
      } else patternsOf(field, found);
    }
  }
  return found;
}

/** The metavariables a rule's matches carry: those of its patterns, and those its `transform` defines. */
export function ruleCaptures(query: RuleQuery): { single: string[]; multi: string[]; transformed: string[] } {
  const names = metavariableNames(
    patternsOf([query.rule, query.utils ?? {}], [])
      .map((pattern) => pattern.text)
      .join("\n"),
  );
  const transformed = Object.keys(query.transform ?? {});
  return {
    single: names.single.filter((name) => !transformed.includes(name)),
    multi: names.multi.filter((name) => !transformed.includes(name)),
    transformed,
  };
}

/**
 * Compile an ast-grep rule for one language: ast-grep's own rule engine checks it (see `checkRule`, and
 * `withRewriters` for a rule file's rewriters, which need the native engine) and runs it, on either backend; the matches may be of any kind. Captures are the metavariables of
 * its patterns, and the metavariables its `transform` defines.
 *
 * @throws ToolError `invalid_input` naming the part of the rule ast-grep refuses.
 */
export function compileRule(language: LanguageInfo, query: RuleQuery): CompiledPattern {
  const matcher = withRewriters(language, query, checkRule(language, query));
  const patterns = patternsOf([query.rule, query.utils ?? {}], []);
  const { single, multi, transformed } = ruleCaptures(query);
  return {
    language,
    snippet: JSON.stringify(query.rule),
    reading: {
      context: { name: "rule", prefix: "", suffix: "" },
      kind: "rule",
      contextText: "",
      literals: [],
      anyKind: true,
    },
    alternatives: [],
    matcher,
    captures: { single, multi },
    hints: [],
    rule: {
      query,
      patterns: patterns.map((pattern) => ({
        text: pattern.text,
        kind: pattern.selector ?? astGrepKindOf(language, pattern.text),
      })),
    },
    ...(transformed.length === 0 ? {} : { transformed }),
  };
}

function shortened(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** One line saying how a rule was read: the rule, its other parts, and each of its patterns as ast-grep reads it. */
export function describeRule(compiled: CompiledPattern): string {
  const rule = compiled.rule!;
  const { utils, constraints, transform, rewriters } = rule.query;
  const others = Object.entries({ utils, constraints, transform })
    .filter(([, part]) => part !== undefined)
    .map(
      ([name, part]) =>
        `${name} ${Object.keys(part!)
          .map((key) => `\`${key}\``)
          .join(", ")}`,
    );
  if (rewriters !== undefined)
    others.push(
      `rewriters ${rewriters.map((rewriter) => `\`${String((rewriter as { id: unknown }).id)}\``).join(", ")}`,
    );
  const patterns = rule.patterns.map(({ text, kind }) => {
    if (kind === undefined) return `\`${text}\` (not one node to ast-grep)`;
    if (kind === "ERROR") return `\`${text}\` as an ERROR node (it matches code of any kind with the same parts)`;
    return `\`${text}\` as \`${kind}\``;
  });
  return [
    `read as the ast-grep rule \`${shortened(JSON.stringify(rule.query.rule), 300)}\` in ${compiled.language.id}`,
    others.length > 0 ? ` with ${others.join("; ")}` : "",
    patterns.length > 0 ? `; its patterns, as ast-grep reads them: ${patterns.join(", ")}` : "",
  ].join("");
}

/** Relational parts that look only one level away: `inside` and `has` without `stopBy: end` see only the parent or the children. */
export function ruleHints(compiled: CompiledPattern): string[] {
  const query = compiled.rule?.query;
  if (query === undefined) return [];
  const hints: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isRecord(value)) {
      for (const [key, field] of Object.entries(value)) {
        if (
          ["inside", "has", "follows", "precedes"].includes(key) &&
          isRecord(field) &&
          field["stopBy"] === undefined
        ) {
          hints.push(
            `\`${key}\` without \`stopBy\` looks only at the ${key === "inside" ? "parent" : key === "has" ? "children" : "neighbouring sibling"}; add \`stopBy: end\` to look ${key === "inside" ? "at every ancestor" : key === "has" ? "at every descendant" : "at every sibling that way"}.`,
          );
        }
        walk(field);
      }
    }
  };
  walk([query.rule, query.utils ?? {}]);
  return [...new Set(hints)];
}
