import type { NapiConfig } from "@ast-grep/napi";
import { ToolError } from "@runbound/tool-kit";
import { engineMissingReason, engineReads, engineRuleRefusal } from "./engine-binding.js";
import type { LanguageInfo } from "./language-info.js";
import { refused } from "./rule-check.js";
import { isRecord, type RuleQuery } from "./rule-text.js";

/** What the engine prefixes its refusals with; the refusal quoted to the model starts after it. */
const enginePrefix = /^The rule does not compile: /;
/** A refusal of the rewriters' shape (serde's), which names no rewriter. */
const notRewriters = /^The rule's `rewriters` are not valid ast-grep rewriters: /;

function trimmed(why: string): string {
  return why.replace(enginePrefix, "").replace(notRewriters, "").replace(/\.$/, "");
}

/** The refusal for the first rewriter whose shape the engine refuses on its own, if one is. */
function shapeRefusal(
  language: LanguageInfo,
  config: NapiConfig,
  rewriters: readonly unknown[],
): ToolError | undefined {
  // Without the rule's own `transform`, a rewriter alone cannot be refused for an undefined one.
  const bare: NapiConfig = { ...config };
  delete bare.transform;
  for (const [index, rewriter] of rewriters.entries()) {
    const why = engineRuleRefusal(language, { ...bare, rewriters: [rewriter as object] });
    if (why !== undefined && notRewriters.test(why))
      return refused(`rewriters[${index}]`, rewriter, trimmed(why), language);
  }
  return undefined;
}

/** The part of the rule an engine refusal is about: a rewriter by its id, or a `transform`. */
function refusal(language: LanguageInfo, query: RuleQuery, config: NapiConfig, why: string): ToolError {
  const rewriters = query.rewriters ?? [];
  if (notRewriters.test(why)) {
    const found = shapeRefusal(language, config, rewriters);
    if (found !== undefined) return found;
    return refused("rewriters", rewriters, trimmed(why), language);
  }
  const invalidOne = /^Rewriter `([^`]*)` has invalid configuration/.exec(trimmed(why))?.[1];
  const index = rewriters.findIndex((rewriter) => isRecord(rewriter) && rewriter["id"] === invalidOne);
  if (invalidOne !== undefined && index >= 0)
    return refused(`rewriters[${index}]`, rewriters[index], trimmed(why), language);
  // An undefined rewriter: in the rule's `transform`, or in a rewriter's own.
  const undefinedOne = /^Undefined rewriter `([^`]*)`/.exec(trimmed(why))?.[1];
  if (undefinedOne !== undefined) {
    const uses = (transform: unknown): boolean =>
      JSON.stringify(transform ?? null).includes(JSON.stringify(undefinedOne));
    if (uses(query.transform)) return refused("transform", query.transform, trimmed(why), language);
    const inRewriter = rewriters.findIndex((rewriter) => isRecord(rewriter) && uses(rewriter["transform"]));
    if (inRewriter >= 0)
      return refused(
        `rewriters[${inRewriter}].transform`,
        (rewriters[inRewriter] as Record<string, unknown>)["transform"],
        trimmed(why),
        language,
      );
  }
  return refused("rewriters", rewriters, trimmed(why), language);
}

/**
 * A rule file's `rewriters` (the rewrite rules its `rewrite` transforms apply), checked by ast-grep and
 * added to the rule's config. napi's rule objects have no rewriters: it would neither check them nor
 * apply them (a `rewrite` transform would give its source unchanged), so a rule with rewriters runs on
 * the native engine, which compiles it as ast-grep compiles a rule file (ast-grep-config's
 * `SerializableRuleConfig::get_matcher`). napi ignores the field, so the config still serves napi's
 * own uses (checking parts of the rule, a fix's expansions), which do not depend on the rewriters.
 *
 * @throws ToolError `unavailable` when the engine does not read the language here (it says why);
 * `invalid_input` naming the rewriter (or the `transform`) ast-grep refuses and its reason.
 */
export function withRewriters(language: LanguageInfo, query: RuleQuery, config: NapiConfig): NapiConfig {
  const rewriters = query.rewriters;
  if (rewriters === undefined) return config;
  if (!engineReads(language)) {
    const why = engineMissingReason().replace(/\.$/, "");
    throw new ToolError({
      code: "unavailable",
      message: `The rule file has \`rewriters\`, which ast_grep and ast_edit run only on the native engine (@runbound/astgrep-engine): @ast-grep/napi's rule objects have no rewriters, so napi could neither check them as ast-grep does nor apply them in a \`rewrite\` transform. ${why === "it is loaded" ? `The engine does not read \`${language.id}\` here (its grammar was registered with napi only).` : `The engine is not available here: ${why}.`} Install or enable the engine, or drop \`rewriters\` and the \`rewrite\` transforms that use them: they change what a \`fix\` writes, not what the rule matches.`,
    });
  }
  const withThem = { ...config, rewriters } as NapiConfig;
  let why: string | undefined;
  try {
    why = engineRuleRefusal(language, withThem);
  } catch (error) {
    throw new ToolError({
      code: "unavailable",
      message: `The rule file has \`rewriters\`, and ${error instanceof Error ? error.message : String(error)}.`,
    });
  }
  if (why === undefined) return withThem;
  throw refusal(language, query, config, why);
}
