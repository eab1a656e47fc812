import { ToolError } from "@runbound/tool-kit";
import { stat } from "node:fs/promises";
import type { AstGrepParserInstance } from "./astgrep-parser.js";
import type { PatternObject } from "./pattern-object.js";
import { parseRuleText, type RuleQuery } from "./rule-text.js";
import { resolveSearchScope, type SearchScope } from "./search-scope.js";
import type { SearchQuery } from "./search-request.js";

/** The inputs ast_grep and ast_edit share for what to look for and where. */
export interface QueryInputs {
  pattern?: string | PatternObject | undefined;
  rule?: string | undefined;
  path?: string | undefined;
  language?: string | undefined;
}

/** What a call searches for and where, from its inputs. */
export interface ResolvedQuery {
  query: SearchQuery;
  scope: SearchScope;
  /** The rule, when the call gave one. */
  rule?: RuleQuery;
}

/**
 * Read `pattern` or `rule` (exactly one), and the scope: a rule's own `language` is used when the
 * call gives none, and a rule searched in a directory needs a language (its kinds and patterns belong
 * to one grammar, as in ast-grep's rule files).
 *
 * @throws ToolError `invalid_input` for neither or both, a rule that is not a rule (see `parseRuleText`),
 * or a rule without a language over a directory.
 */
export async function resolveQuery(
  parser: AstGrepParserInstance,
  workdir: string,
  input: QueryInputs,
): Promise<ResolvedQuery> {
  if ((input.pattern === undefined) === (input.rule === undefined)) {
    throw new ToolError({
      code: "invalid_input",
      message:
        input.rule === undefined
          ? "Give `pattern` (code with metavariables, e.g. `foo($A)`) or `rule` (an ast-grep rule as YAML, e.g. `kind: call_expression`)."
          : "Give `pattern` or `rule`, not both: put the pattern inside the rule (`pattern: …`) instead.",
    });
  }
  if (input.rule === undefined) {
    const scope = await resolveSearchScope(parser, workdir, input.path, input.language);
    return { query: input.pattern!, scope };
  }
  const rule = parseRuleText(input.rule);
  const scope = await resolveSearchScope(parser, workdir, input.path, input.language ?? rule.language);
  if (scope.language === undefined && !(await stat(scope.root)).isFile()) {
    throw new ToolError({
      code: "invalid_input",
      message: `A rule belongs to one language (its kinds and patterns are that grammar's): give \`language\` (or \`language:\` in the rule) to search the directory \`${input.path ?? "."}\`.`,
    });
  }
  return { query: { rule }, scope, rule };
}
