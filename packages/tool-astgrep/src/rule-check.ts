import type { NapiConfig } from "@ast-grep/napi";
import { ToolError } from "@runbound/tool-kit";
import { describeKindsNear } from "./grammar-kinds.js";
import type { LanguageInfo } from "./language-info.js";
import { napi } from "./napi-binding.js";
import { isRecord, shown, type RuleQuery } from "./rule-text.js";

const relationalFields = ["inside", "has", "precedes", "follows"] as const;

/** ast-grep's own complaint about a config, or undefined when it compiles (napi compiles on use). */
function astGrepRefusal(language: LanguageInfo, config: NapiConfig): string | undefined {
  try {
    napi().parse(language.napiLang, "").root().findAll(config);
    return undefined;
  } catch (error) {
    // napi's message is a chain of lines (`rule` is not configured correctly. |->Rule contains …).
    return (error instanceof Error ? error.message : String(error))
      .split("\n")
      .map((line) => line.replace(/^\s*\|->/, "").trim())
      .filter((line) => line.length > 0 && !/is not configured correctly\.?$/.test(line))
      .join(" ");
  }
}

/** A refusal naming the part of the rule, its value and ast-grep's reason (an unknown kind also names the kinds near it). */
export function refused(path: string, value: unknown, why: string, language: LanguageInfo): ToolError {
  const kind = /Kind `([^`]+)` is invalid/.exec(why)?.[1];
  const near = kind === undefined ? "" : describeKindsNear(language, kind);
  return new ToolError({
    code: "invalid_input",
    message: `The rule's \`${path}\` is \`${shown(value)}\`, which ast-grep refuses: ${why}${near}.`,
  });
}

/**
 * Find the innermost part of a rule that ast-grep refuses, by compiling its parts with ast-grep itself
 * (napi), deepest first: the refusal then names the field (`rule.inside.kind`), its value and
 * ast-grep's reason. Nothing here decides what a rule means.
 */
function checkPart(
  path: string,
  value: unknown,
  language: LanguageInfo,
  utils: Record<string, unknown> | undefined,
): void {
  if (!isRecord(value))
    throw refused(
      path,
      value,
      "a rule is a mapping of rule fields, such as `{pattern: foo($A)}` or `{kind: call_expression}`",
      language,
    );
  for (const field of relationalFields) {
    const relation = value[field];
    if (relation === undefined) continue;
    if (!isRecord(relation))
      throw refused(
        `${path}.${field}`,
        relation,
        "a relational rule is a rule mapping, with `stopBy` and `field` optional",
        language,
      );
    const { stopBy, field: _field, ...inner } = relation;
    checkPart(`${path}.${field}`, inner, language, utils);
    if (isRecord(stopBy)) checkPart(`${path}.${field}.stopBy`, stopBy, language, utils);
    const why = astGrepRefusal(language, {
      rule: { [field]: relation },
      ...(utils === undefined ? {} : { utils }),
    } as NapiConfig);
    if (why !== undefined) {
      const culprit =
        stopBy !== undefined && /stopBy|variant/.test(why)
          ? "stopBy"
          : _field !== undefined && /field/i.test(why)
            ? "field"
            : undefined;
      throw culprit === undefined
        ? refused(`${path}.${field}`, relation, why, language)
        : refused(`${path}.${field}.${culprit}`, relation[culprit], why, language);
    }
  }
  for (const field of ["all", "any"] as const) {
    const list = value[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw refused(`${path}.${field}`, list, `\`${field}\` takes a list of rules`, language);
    list.forEach((item, index) => checkPart(`${path}.${field}[${index}]`, item, language, utils));
  }
  if (value["not"] !== undefined) checkPart(`${path}.not`, value["not"], language, utils);
  const why = astGrepRefusal(language, { rule: value, ...(utils === undefined ? {} : { utils }) } as NapiConfig);
  if (why === undefined) return;
  // The parts checked above compile; find the atomic field ast-grep refuses on its own.
  for (const [field, part] of Object.entries(value)) {
    if (
      (relationalFields as readonly string[]).includes(field) ||
      field === "all" ||
      field === "any" ||
      field === "not"
    )
      continue;
    const alone = astGrepRefusal(language, {
      rule: { [field]: part },
      ...(utils === undefined ? {} : { utils }),
    } as NapiConfig);
    if (alone !== undefined) throw refused(`${path}.${field}`, part, alone, language);
  }
  throw refused(path, value, why, language);
}

/**
 * Check a rule with ast-grep's own rule engine before a search: each part is compiled on its own, so a
 * refusal names the field, the value and ast-grep's reason (an unknown kind also names the grammar's
 * kinds near it).
 *
 * @throws ToolError `invalid_input` for the first part ast-grep refuses.
 */
export function checkRule(language: LanguageInfo, query: RuleQuery): NapiConfig {
  const { utils } = query;
  for (const [name, util] of Object.entries(utils ?? {})) checkPart(`utils.${name}`, util, language, utils);
  checkPart("rule", query.rule, language, utils);
  for (const [name, constraint] of Object.entries(query.constraints ?? {}))
    checkPart(`constraints.${name}`, constraint, language, utils);
  const config = {
    rule: query.rule,
    ...(query.constraints === undefined ? {} : { constraints: query.constraints }),
    ...(utils === undefined ? {} : { utils }),
    ...(query.transform === undefined ? {} : { transform: query.transform }),
  } as NapiConfig;
  const why = astGrepRefusal(language, config);
  if (why !== undefined) {
    const field =
      query.transform !== undefined && /transform/i.test(why)
        ? "transform"
        : query.constraints !== undefined && /constraint/i.test(why)
          ? "constraints"
          : "rule";
    throw refused(
      field,
      field === "transform" ? query.transform : field === "constraints" ? query.constraints : query.rule,
      why,
      language,
    );
  }
  return config;
}
