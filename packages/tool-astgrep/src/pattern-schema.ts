import * as v from "valibot";
import { maxPatternLength } from "./pattern-limits.js";
import { maxRuleLength } from "./rule-text.js";

/**
 * The `pattern` field of ast_grep and ast_edit (optional: a call gives it or `rule`): code, or a pattern object (`{context, selector}`) as
 * an answer offers the other readings of a pattern. Its bound ({@link maxPatternLength}) is said in the
 * description and checked when the pattern is compiled, not in the schema: OpenAI's strict mode cannot
 * express a string length, and a schema that dropped it would accept what the tool refuses.
 */
export function patternSchema(description: string) {
  return v.pipe(
    v.optional(
      v.union([
        v.string(),
        v.strictObject({
          context: v.pipe(
            v.string(),
            v.description("Code around the pattern, with metavariables, e.g. `type __W interface{}`."),
          ),
          selector: v.pipe(
            v.string(),
            v.description("The node kind in `context` that is the pattern, e.g. `interface_type`."),
          ),
        }),
      ]),
    ),
    v.description(
      `${description} Or a pattern object {"context": …, "selector": …} to pick one reading, as an answer offers them. At most ${maxPatternLength} characters. Give \`pattern\` or \`rule\`, not both.`,
    ),
  );
}

/**
 * The `rule` field: ast-grep's rule format as YAML text (JSON is YAML too). A string, not an object:
 * a rule is an open, recursive mapping, which OpenAI's strict mode cannot express.
 */
export function ruleSchema(extra: string) {
  return v.pipe(
    v.optional(v.string()),
    v.description(
      `Instead of \`pattern\`: an ast-grep rule as YAML or JSON text, as in ast-grep's rule files — atomic \`pattern\` (text or {context, selector, strictness}), \`kind\`, \`regex\`, \`nthChild\`, \`range\`; relational \`inside\`, \`has\`, \`follows\`, \`precedes\` (with \`stopBy: end\` to look past the parent/children/neighbour, \`field\`); composite \`all\`, \`any\`, \`not\`, \`matches\` (with \`utils\`); plus \`constraints\`, \`transform\` (with \`rewriters\`), \`language\`. E.g. \`{"rule": {"pattern": "$C.log($$$A)", "inside": {"kind": "function_declaration", "stopBy": "end"}}}\` or \`kind: call_expression\`.${extra} At most ${maxRuleLength} characters.`,
    ),
  );
}
