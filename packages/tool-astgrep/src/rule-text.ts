import { ToolError } from "@runbound/tool-kit";
import { parse as parseYaml, YAMLParseError } from "yaml";

/** A rule as ast-grep's rule files write it (https://ast-grep.github.io/reference/yaml.html), read from `rule`. */
export interface RuleQuery {
  /** The rule object: atomic, relational and composite fields. */
  rule: Record<string, unknown>;
  constraints?: Record<string, unknown>;
  utils?: Record<string, unknown>;
  transform?: Record<string, unknown>;
  /** The rewrite, for ast_edit: a template, or `{ template, expandStart, expandEnd }`. */
  fix?: unknown;
  /** The rule file's `language`, used when the call gives none. */
  language?: string;
  /**
   * The rule file's rewriters, for its `rewrite` transforms: each a rule with an `id` and a `fix`
   * (checked by ast-grep in the native engine, see `withRewriters`).
   */
  rewriters?: unknown[];
}

/** The fields of a rule object (ast-grep's `SerializableRule`). */
export const ruleFields = [
  "pattern",
  "kind",
  "regex",
  "nthChild",
  "range",
  "inside",
  "has",
  "precedes",
  "follows",
  "all",
  "any",
  "not",
  "matches",
] as const;
/** The fields of a rule file that a search reads. */
const configFields = ["rule", "constraints", "utils", "transform", "fix", "rewriters", "language"] as const;
/** Fields of a rule file that only describe it (a pasted rule file keeps them); they are ignored. */
const descriptiveFields = [
  "id",
  "message",
  "note",
  "severity",
  "metadata",
  "url",
  "labels",
  "files",
  "ignores",
] as const;

/** The longest `rule` text accepted: real rules are hundreds of characters. */
export const maxRuleLength = 16 * 1024;

const example =
  'e.g. `pattern: foo($A)`, or `rule: {kind: call_expression, inside: {kind: function_declaration, stopBy: end}}` (JSON works too: `{"rule": {"pattern": "foo($A)"}}`)';

function invalid(message: string): ToolError {
  return new ToolError({ code: "invalid_input", message });
}

/** Whether a parsed YAML value is a mapping. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A rule value as a message quotes it (JSON, at most 120 characters). */
export function shown(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function mapping(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw invalid(`\`${field}\` is \`${shown(value)}\`; it must be a mapping of names to rules.`);
  return value;
}

/**
 * Read the `rule` input: YAML (JSON is YAML too) holding a rule file (`rule:`, `constraints:`,
 * `utils:`, `transform:`, `fix:`, `rewriters:`, `language:`) or a bare rule object (`pattern: …`, `kind: …`).
 * Only the shape is checked here; what each rule means is ast-grep's to check (see `checkRule`).
 *
 * @throws ToolError `invalid_input` naming the field and the value: not YAML, not a mapping, an unknown field.
 */
export function parseRuleText(text: string): RuleQuery {
  if (text.length > maxRuleLength)
    throw invalid(
      `The rule is ${text.length} characters long; at most ${maxRuleLength} are accepted. Split it, or move shared parts into \`utils\`.`,
    );
  let value: unknown;
  try {
    value = parseYaml(text, { uniqueKeys: true, prettyErrors: true });
  } catch (error) {
    const where =
      error instanceof YAMLParseError && error.linePos !== undefined
        ? ` at ${error.linePos[0].line}:${error.linePos[0].col}`
        : "";
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw invalid(`The rule is not valid YAML${where}: ${reason}. Write it as ast-grep's rule files do, ${example}.`);
  }
  if (!isRecord(value)) {
    throw invalid(
      `The rule reads as \`${shown(value)}\`, not as a mapping of rule fields. Write it as ast-grep's rule files do, ${example}; a plain code snippet goes in \`pattern\` instead.`,
    );
  }
  const isField = (list: readonly string[], key: string): boolean => list.includes(key);
  const bare = value["rule"] === undefined;
  const rule: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (bare && isField(ruleFields, key)) rule[key] = field;
    else if (isField(ruleFields, key))
      throw invalid(
        `The rule file has \`${key}\` at the top beside \`rule\`; move it inside \`rule\` (or drop \`rule:\` and write the rule's fields at the top).`,
      );
    else if (!isField(configFields, key) && !isField(descriptiveFields, key)) {
      throw invalid(
        `The rule has a field \`${key}\`, which ast-grep does not know. A rule file has ${configFields.map((name) => `\`${name}\``).join(", ")}; the rule itself (under \`rule\`, or at the top without it) has ${ruleFields.map((name) => `\`${name}\``).join(", ")}.`,
      );
    }
  }
  const query: RuleQuery = { rule: bare ? rule : (value["rule"] as Record<string, unknown>) };
  if (!isRecord(query.rule))
    throw invalid(`\`rule\` is \`${shown(query.rule)}\`; it must be a rule object, ${example}.`);
  if (Object.keys(query.rule).length === 0)
    throw invalid(
      `The rule has no rule field. Give at least one of ${ruleFields.map((name) => `\`${name}\``).join(", ")}, ${example}.`,
    );
  const constraints = mapping(value["constraints"], "constraints");
  const utils = mapping(value["utils"], "utils");
  const transform = mapping(value["transform"], "transform");
  if (constraints !== undefined) query.constraints = constraints;
  if (utils !== undefined) query.utils = utils;
  if (transform !== undefined) query.transform = transform;
  if (value["fix"] !== undefined && value["fix"] !== null) query.fix = value["fix"];
  const rewriters = value["rewriters"];
  if (rewriters !== undefined && rewriters !== null) {
    if (!Array.isArray(rewriters))
      throw invalid(
        `\`rewriters\` is \`${shown(rewriters)}\`; it must be a list of rewriters, each a rule with an \`id\` and a \`fix\`, e.g. \`rewriters: [{id: to-zero, rule: {kind: number}, fix: '0'}]\`.`,
      );
    rewriters.forEach((rewriter, index) => {
      if (!isRecord(rewriter) || typeof rewriter["id"] !== "string")
        throw invalid(
          `\`rewriters[${index}]\` is \`${shown(rewriter)}\`; a rewriter is a rule with an \`id\` and a \`fix\`, e.g. \`{id: to-zero, rule: {kind: number}, fix: '0'}\`.`,
        );
    });
    query.rewriters = rewriters;
  }
  const language = value["language"];
  if (language !== undefined && language !== null) {
    if (typeof language !== "string")
      throw invalid(`\`language\` is \`${shown(language)}\`; give a grammar id such as \`go\`.`);
    query.language = language;
  }
  return query;
}
