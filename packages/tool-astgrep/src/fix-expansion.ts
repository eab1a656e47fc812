import type { NapiConfig, SgNode } from "@ast-grep/napi";
import { ToolError } from "@runbound/tool-kit";
import type { LanguageInfo } from "./language-info.js";
import { lineStarts } from "./line-starts.js";
import { napi } from "./napi-binding.js";
import { checkRule } from "./rule-check.js";
import { compileRule } from "./rule-compiler.js";
import { isRecord, shown, type RuleQuery } from "./rule-text.js";
import type { SearchMatch } from "./search-match.js";

/**
 * One side of a fix's expansion (ast-grep's `expandStart` / `expandEnd`): the replaced range grows to
 * take in the first sibling before (after) the match that matches `rule`, looking at the next sibling
 * only (`neighbor`, the default), at all of them (`end`), or at those up to and including the first
 * that matches `stopBy`.
 */
export interface FixExpansion {
  rule: NapiConfig;
  stopBy: "neighbor" | "end" | NapiConfig;
}

/** Both sides; either may be absent. */
export interface FixExpansions {
  expandStart?: FixExpansion;
  expandEnd?: FixExpansion;
}

/** A span of the text, in UTF-16 offsets. */
export interface Span {
  start: number;
  end: number;
}

function compiled(path: string, rule: unknown, language: LanguageInfo, query: RuleQuery): NapiConfig {
  if (!isRecord(rule))
    throw new ToolError({
      code: "invalid_input",
      message: `The rule's \`${path}\` is \`${shown(rule)}\`; give a rule object, e.g. \`{regex: ",", stopBy: neighbor}\`.`,
    });
  try {
    return checkRule(language, { rule, ...(query.utils === undefined ? {} : { utils: query.utils }) });
  } catch (error) {
    // checkRule names the part as `rule…`; here it is a part of the fix.
    if (error instanceof ToolError)
      throw new ToolError({
        code: "invalid_input",
        message: error.message.replace("The rule's `rule", `The rule's \`${path}`),
      });
    throw error;
  }
}

/**
 * Compile a fix's `expandStart` / `expandEnd` for one language with ast-grep's own rule engine (the
 * relation's `stopBy` as its relational rules read it; `field` is ignored, as ast-grep does).
 *
 * @throws ToolError `invalid_input` naming the part ast-grep refuses.
 */
export function compileExpansions(
  language: LanguageInfo,
  query: RuleQuery,
  sides: { expandStart?: unknown; expandEnd?: unknown },
): FixExpansions {
  const expansions: FixExpansions = {};
  for (const side of ["expandStart", "expandEnd"] as const) {
    const relation = sides[side];
    if (relation === undefined) continue;
    const path = `fix.${side}`;
    if (!isRecord(relation)) compiled(path, relation, language, query);
    const { stopBy = "neighbor", ...parts } = relation as Record<string, unknown>;
    // A relation's `field` means nothing to an expansion; ast-grep ignores it there too.
    const rule = Object.fromEntries(Object.entries(parts).filter(([key]) => key !== "field"));
    expansions[side] = {
      rule: compiled(path, rule, language, query),
      stopBy: stopBy === "neighbor" || stopBy === "end" ? stopBy : compiled(`${path}.stopBy`, stopBy, language, query),
    };
  }
  return expansions;
}

// The siblings an expansion may take in, nearest first: ast-grep's StopBy over `next`/`nextAll`.
function candidates(node: SgNode, expansion: FixExpansion, forward: boolean): SgNode[] {
  if (expansion.stopBy === "neighbor") {
    const sibling = forward ? node.next() : node.prev();
    return sibling === null ? [] : [sibling];
  }
  const all = forward ? node.nextAll() : node.prevAll();
  if (expansion.stopBy === "end") return all;
  const stop = all.findIndex((sibling) => sibling.matches(expansion.stopBy as NapiConfig));
  return stop < 0 ? all : all.slice(0, stop + 1);
}

/**
 * The range each match's fix replaces once `expansions` are applied: the match's own span, widened to
 * the start of the first earlier sibling matching `expandStart` and the end of the first later one
 * matching `expandEnd`. The file is parsed again and the matches found again with `matcher` to reach
 * their siblings. Unlike ast-grep, an expansion's rule sees no metavariable the match captured.
 */
export function expandedSpans(
  language: LanguageInfo,
  matcher: NapiConfig,
  expansions: FixExpansions,
  text: string,
  matches: readonly SearchMatch[],
): Map<SearchMatch, Span> {
  const starts = lineStarts(text);
  const offset = (position: { line: number; column: number }) => starts[position.line]! + position.column;
  // By start and length: nested matches may start at one offset.
  const nodes = new Map<string, SgNode>();
  for (const node of napi().parse(language.napiLang, text).root().findAll(matcher))
    nodes.set(`${offset(node.range().start)}:${node.text().length}`, node);
  const spans = new Map<SearchMatch, Span>();
  for (const match of matches) {
    const node = nodes.get(`${match.start}:${match.end - match.start}`);
    if (node === undefined) continue;
    const before =
      expansions.expandStart === undefined
        ? undefined
        : candidates(node, expansions.expandStart, false).find((sibling) =>
            sibling.matches(expansions.expandStart!.rule),
          );
    const after =
      expansions.expandEnd === undefined
        ? undefined
        : candidates(node, expansions.expandEnd, true).find((sibling) => sibling.matches(expansions.expandEnd!.rule));
    spans.set(match, {
      start: before === undefined ? match.start : offset(before.range().start),
      end: after === undefined ? match.end : offset(after.range().end),
    });
  }
  return spans;
}

/**
 * For ast_edit: the spans function `planRewrite` takes, for a rule's fix with expansions. The rule and
 * its expansions are compiled once per language, at once for the call's `language` (so a refused
 * expansion is named before anything is searched), else for each file's language when first met.
 */
export function expansionSpans(
  query: RuleQuery,
  sides: { expandStart?: unknown; expandEnd?: unknown },
  languages: ReadonlyMap<string, LanguageInfo>,
  callLanguage: LanguageInfo | undefined,
): (original: string, matches: readonly SearchMatch[]) => ReadonlyMap<SearchMatch, Span> {
  const compiledFor = new Map<string, { matcher: NapiConfig; expansions: FixExpansions }>();
  const compile = (language: LanguageInfo) => {
    let found = compiledFor.get(language.id);
    if (found === undefined) {
      found = { matcher: compileRule(language, query).matcher, expansions: compileExpansions(language, query, sides) };
      compiledFor.set(language.id, found);
    }
    return found;
  };
  if (callLanguage !== undefined) compile(callLanguage);
  return (original, matches) => {
    const language = matches[0] === undefined ? undefined : languages.get(matches[0].language);
    if (language === undefined) return new Map();
    const { matcher, expansions } = compile(language);
    return expandedSpans(language, matcher, expansions, original, matches);
  };
}
