import { ToolError } from "@runbound/tool-kit";
import type { RuleQuery } from "./rule-text.js";

/** The rewrite of an ast_edit call: its template, and the field it came from (for messages). */
export interface Fix {
  template: string;
  field: "rewrite" | "rule's `fix`";
  /** The fix object's `expandStart` / `expandEnd`, as given (compiled per language by `compileExpansions`). */
  expand?: { expandStart?: unknown; expandEnd?: unknown };
}

function invalid(message: string): ToolError {
  return new ToolError({ code: "invalid_input", message });
}

/**
 * The rewrite of an ast_edit call: `rewrite`, or a rule's `fix` (a template, or `{template}`).
 *
 * @throws ToolError `invalid_input` when there is none, when both are given, or for a `fix` that is
 * no template.
 */
export function ruleFix(rule: RuleQuery | undefined, rewrite: string | undefined): Fix {
  const fix = rule?.fix;
  if (fix !== undefined && rewrite !== undefined)
    throw invalid("Give the rewrite once: either the rule's `fix` or `rewrite`, not both.");
  if (rewrite !== undefined) return { template: rewrite, field: "rewrite" };
  if (fix === undefined) {
    throw invalid(
      rule === undefined
        ? "Give `rewrite`: the code each match becomes, e.g. `$X.dispose()`."
        : "Give `rewrite`, or a `fix` in the rule (`fix: $X.dispose()`): the code each match becomes.",
    );
  }
  if (typeof fix === "string") return { template: fix, field: "rule's `fix`" };
  if (
    typeof fix === "object" &&
    fix !== null &&
    !Array.isArray(fix) &&
    typeof (fix as Record<string, unknown>)["template"] === "string"
  ) {
    const { template, expandStart, expandEnd, ...rest } = fix as Record<string, unknown>;
    const unknown = Object.keys(rest).filter((key) => key !== "title");
    if (unknown.length > 0)
      throw invalid(
        `The rule's \`fix.${unknown[0]}\` is not a fix field; a fix object has \`template\`, \`expandStart\` and \`expandEnd\`.`,
      );
    if (expandStart === undefined && expandEnd === undefined)
      return { template: template as string, field: "rule's `fix`" };
    return {
      template: template as string,
      field: "rule's `fix`",
      expand: {
        ...(expandStart === undefined ? {} : { expandStart }),
        ...(expandEnd === undefined ? {} : { expandEnd }),
      },
    };
  }
  throw invalid(
    `The rule's \`fix\` is \`${JSON.stringify(fix).slice(0, 120)}\`; give a template string (\`fix: $X.dispose()\`) or \`{template: …}\`.`,
  );
}
