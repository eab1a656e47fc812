import type { NapiConfig, SgNode } from "@ast-grep/napi";
import { ToolError } from "@runbound/tool-kit";
import { throwIfAborted } from "./abort-error.js";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { LanguageInfo } from "./language-info.js";
import { napi } from "./napi-binding.js";
import { assertPatternLength, maxPatternDepth, patternTooDeep } from "./pattern-limits.js";
import { wrappingContexts, type WrappingContext } from "./wrapping-contexts.js";
import { astGrepAgrees, patternRootOf, type ContextReading } from "./ast-grep-reading.js";
import { metavariableNames, metavariablePattern, substituteMetavariables } from "./metavariable-text.js";
import type { RuleQuery } from "./rule-text.js";

export { metavariableNames, substituteMetavariables };

/** One accepted way of reading a pattern: a context and the node kind that spans the snippet in it. */
export interface PatternReading {
  /** The context that parsed cleanly. */
  context: WrappingContext;
  /** The kind of the node spanning the snippet: the selector. */
  kind: string;
  /** The full context text given to ast-grep (with `$` metavariables). */
  contextText: string;
  /**
   * Texts of the pattern's literal tokens. Every match contains each of them verbatim (a pattern leaf
   * that is not a metavariable matches only a leaf with the same text), so a file lacking one is skipped unparsed.
   */
  literals: readonly string[];
  /**
   * The terminator the context added (e.g. `;`) when the reading's node spans it too; every match
   * then ends with it, and a rewrite without it gets it back.
   */
  spannedTerminator?: string;
  /**
   * Set when the reading is not clean and is used only because no context gives a clean one: the
   * snippet parsed with ERROR or MISSING nodes (`errors`), or ast-grep could not match the reading
   * against the pattern's own text (`unverified`, e.g. JSON `[$A]`, where `$A` is no JSON value).
   */
  tolerance?: { kind: "errors" | "unverified"; reason: string };
  /**
   * Set when the reading is the snippet's ERROR node (a tolerant reading of the as-is parse, as ast-grep
   * reads Go `print('123')` or C++ `struct $A: $B`): ast-grep matches an ERROR pattern node against a
   * node of any kind, comparing only the children, so the matcher is the bare snippet with no selector
   * (a selector would demand the kind ERROR) and a match may be of any kind (see {@link matcherOf}).
   */
  anyKind?: true;
}

/** Why a context did not accept the snippet, and the reading it would give if no context is clean. */
export interface RejectedContext {
  context: string;
  reason: string;
  /** The context's best reading that is not clean (see {@link PatternReading.tolerance}). */
  fallback?: PatternReading;
}

/** How a pattern may be read. */
export interface CompileOptions {
  /**
   * When no context reads the pattern cleanly, use its best tolerant reading (as ast-grep does) instead
   * of refusing it; the compiled pattern then says so ({@link CompiledPattern.tolerant}), and a search
   * that finds nothing with it must refuse the pattern ({@link tolerantReadingsFoundNothing}). Meant for
   * a language the caller named: in a search over every language present, a language where the
   * pattern has only a tolerant reading is better left out.
   */
  tolerant?: boolean;
}

/** A pattern ready to run. */
export interface CompiledPattern {
  language: LanguageInfo;
  /** The snippet as given, trimmed. */
  snippet: string;
  /** The reading used. */
  reading: PatternReading;
  /** Other accepted readings of a different kind, for messages. */
  alternatives: readonly PatternReading[];
  /** The napi rule. */
  matcher: NapiConfig;
  /** Captured metavariable names: `$NAME` and `$$NAME` → single, `$$$NAME` → multi. */
  captures: { single: readonly string[]; multi: readonly string[] };
  /** Likely mistakes worth mentioning when nothing matches. */
  hints: readonly string[];
  /**
   * Set when the reading used is a tolerant one ({@link PatternReading.tolerance}): every context tried
   * and why none was clean, for the answer and for the refusal when the reading finds nothing.
   */
  tolerant?: { tried: string };
  /**
   * Set when the search runs an ast-grep rule (`rule` input) instead of a pattern: the rule as given,
   * and how ast-grep reads each pattern string in it. The reading is then `anyKind`: a rule's matches
   * may be of any kind.
   */
  rule?: { query: RuleQuery; patterns: ReadonlyArray<{ text: string; kind: string | undefined }> };
  /** Set when the pattern was given as a pattern object (`{context, selector}`): ast-grep reads it as given. */
  given?: true;
  /** Metavariables a rule's `transform` defines: each match carries their text. */
  transformed?: readonly string[];
}

function hintsFor(snippet: string): string[] {
  const hints: string[] = [];
  const lowercase = snippet.match(/(?<![\w$])\$[a-z][\w]*/);
  if (lowercase !== null)
    hints.push(
      `\`${lowercase[0]}\` is not a metavariable (names are UPPERCASE: \`$${lowercase[0].slice(1).toUpperCase()}\`); it matches that literal text only.`,
    );
  if (/["'`][^"'`\n]*\$[A-Z_][^"'`\n]*["'`]/.test(snippet))
    hints.push("A `$NAME` inside a string literal is literal text, not a metavariable; use `$S` for the whole string.");
  if (/[A-Za-z0-9]\$[A-Z]/.test(snippet))
    hints.push("A `$NAME` glued to other characters (like `on$EVENT`) is literal text, not a metavariable.");
  return hints;
}

interface Span {
  start: number;
  end: number;
}

interface InspectedNode {
  node: SgNode;
  start: number;
  end: number;
  kind: string;
  isLeaf: boolean;
  /** A leaf's named-ness: `if` the keyword is an unnamed leaf, `x` the identifier a named one. */
  named: boolean;
  /** The node, or a node above it inside the snippet, is a metavariable (`$A`; in PHP a node with leaves `$` and `A`). */
  inMetavariable: boolean;
}

interface Inspection {
  /** The first ERROR or MISSING node in pre-order (the walk goes on: a tolerant reading needs the rest). */
  problem?: { kind: "ERROR" | "MISSING"; index: number; text: string };
  /** Nodes whose range equals one of the wanted spans, outermost first, with their depth. */
  spanning: Array<{ node: SgNode; depth: number; exact: boolean }>;
  /** Every node inside the snippet (with the added terminator), leaves included, in pre-order. */
  inside: InspectedNode[];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function metavariableTextPattern(expandoChar: string): RegExp {
  return new RegExp(`^${escapeRegex(expandoChar)}{1,3}[A-Z_][A-Z0-9_]*$`);
}

/**
 * Walk the parsed context once, with an explicit stack (a pattern can nest deeper than the JS stack),
 * reading each node's range and kind once: texts are slices of `parsedText`, never further FFI calls,
 * so the cost stays linear in the size of the tree.
 *
 * @throws ToolError `invalid_input` when the tree is deeper than {@link maxPatternDepth}.
 */
function inspect(
  root: SgNode,
  parsedText: string,
  snippetSpan: Span,
  terminatedEnd: number | undefined,
  language: LanguageInfo,
): Inspection {
  const result: Inspection = { spanning: [], inside: [] };
  const expando = escapeRegex(language.expandoChar);
  const lonelyMetavariable = new RegExp(`^(?:${expando}{1,3}[A-Z_][A-Z0-9_]*|${expando}{3})$`);
  const metavariableText = metavariableTextPattern(language.expandoChar);
  const insideEnd = terminatedEnd ?? snippetSpan.end;
  const stack: Array<{ node: SgNode; depth: number; inMetavariable: boolean }> = [
    { node: root, depth: 0, inMetavariable: false },
  ];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { node, depth } = entry;
    if (depth > maxPatternDepth) throw patternTooDeep(language.id);
    const range = node.range();
    const start = range.start.index;
    const end = range.end.index;
    const kind = String(node.kind());
    const text = parsedText.slice(start, end);
    // `$$$BODY` where the grammar wants items (an impl or class body, a C block) is an ERROR node
    // holding only the metavariable; ast-grep still reads it as a metavariable, so it is not a fault.
    // The first fault in pre-order is the one reported.
    if (kind === "ERROR" && !lonelyMetavariable.test(text.trim()))
      result.problem ??= { kind: "ERROR", index: start, text };
    const children = node.children();
    // napi exposes no isMissing(); a zero-width leaf is how a MISSING node shows (research astgrep.md §2).
    if (children.length === 0 && start === end) result.problem ??= { kind: "MISSING", index: start, text: kind };
    if (start === snippetSpan.start && (end === snippetSpan.end || end === terminatedEnd)) {
      result.spanning.push({ node, depth, exact: end === snippetSpan.end });
    }
    let inMetavariable = entry.inMetavariable;
    if (start >= snippetSpan.start && end <= insideEnd) {
      inMetavariable ||= metavariableText.test(text);
      const isLeaf = children.length === 0;
      result.inside.push({ node, start, end, kind, isLeaf, named: isLeaf && node.isNamed(), inMetavariable });
    }
    for (let index = children.length - 1; index >= 0; index--)
      stack.push({ node: children[index]!, depth: depth + 1, inMetavariable });
  }
  return result;
}

function describePosition(snippet: string, offset: number): string {
  if (offset < 0) return "before the snippet";
  if (offset > snippet.length) return "after the snippet (it is incomplete)";
  const before = snippet.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return `at ${line}:${column}`;
}

/** The literal words of a reading, from the nodes inside its node. */
function literalsOf(inside: readonly InspectedNode[], contextText: string): string[] {
  const texts = new Set<string>();
  // The leaves of a metavariable node (`$` and `ARGS` in PHP) are not literals every match contains.
  for (const leaf of inside.filter((node) => node.isLeaf && !node.inMetavariable)) {
    // The text as the user wrote it: the parsed text has the expando character in place of `$`.
    const text = contextText.slice(leaf.start, leaf.end);
    if (text.length < 2 || text.includes("$") || text.includes("\n") || text.includes("\r")) continue;
    if (leaf.kind.includes("comment") || !/[\p{L}\p{N}_]/u.test(text)) continue;
    texts.add(text);
  }
  return [...texts].sort((first, second) => second.length - first.length).slice(0, 4);
}

/** Where the first ERROR or MISSING node is, in words, with the text the user wrote. */
function describeProblem(
  problem: NonNullable<Inspection["problem"]>,
  snippet: string,
  snippetSpan: Span,
  contextText: string,
): string {
  const { kind, index, text: problemText } = problem;
  // An ERROR node that starts in the wrapper but reaches into the snippet is the snippet's fault.
  const reachesSnippet = index < snippetSpan.start && index + problemText.length > snippetSpan.start;
  const from = reachesSnippet ? snippetSpan.start : index;
  const where = describePosition(snippet, from - snippetSpan.start);
  // The context text has the same offsets as the parsed one and shows `$`, not the expando character.
  const near =
    kind === "ERROR"
      ? `unexpected \`${contextText.slice(from, Math.min(index + problemText.length, from + 40))}\``
      : `missing \`${problemText}\``;
  return `${kind === "ERROR" ? "syntax error" : "incomplete code"} ${where}: ${near}`;
}

/**
 * Whether the terminator the context added ends a statement of the snippet (`f(x);`, Dart
 * `if (a) b.c();`) rather than being code of its own: C++ `if (x);` is an `if` whose body is the
 * empty statement `;`, which would match only such an `if`.
 */
function terminatorEndsStatement(
  inside: readonly InspectedNode[],
  snippetEnd: number,
  terminatedEnd: number,
  terminator: string,
): boolean {
  return !inside.some((node) => node.start === snippetEnd && node.end === terminatedEnd && node.kind !== terminator);
}

/** Keyword tokens of the snippet (`if`, `template`) by offset in the snippet, as one parse reads them. */
type Keywords = ReadonlyMap<number, string>;

function keywordsOf(inside: readonly InspectedNode[], parsedText: string, snippetStart: number): Keywords {
  const keywords = new Map<number, string>();
  for (const node of inside) {
    const text = parsedText.slice(node.start, node.end);
    if (node.isLeaf && !node.named && node.kind === text && /^[A-Za-z_]\w*$/.test(text))
      keywords.set(node.start - snippetStart, text);
  }
  return keywords;
}

/** A keyword of the as-is parse that this reading takes for a name (C++ `if ($A)` read as a call of `if`). */
function keywordReadAsName(
  inside: readonly InspectedNode[],
  parsedText: string,
  snippetStart: number,
  keywords: Keywords,
): string | undefined {
  for (const node of inside) {
    if (!node.named) continue;
    const keyword = keywords.get(node.start - snippetStart);
    if (keyword !== undefined && parsedText.slice(node.start, node.end) === keyword) return keyword;
  }
  return undefined;
}

function nodesWithin(
  nodes: readonly InspectedNode[],
  range: { start: { index: number }; end: { index: number } },
): InspectedNode[] {
  return nodes.filter((node) => node.start >= range.start.index && node.end <= range.end.index);
}

/**
 * A metavariable of the snippet that is no node of its own in this reading. ast-grep reads any node
 * whose whole text is `$NAME` as a metavariable (in PHP `$A` is a variable_name node with two leaves);
 * one inside a bigger token (`<$H>` in C, `"$S"`) is literal text to ast-grep and would silently match
 * nothing, so the reading is refused instead.
 */
function buriedMetavariable(
  snippet: string,
  inside: readonly InspectedNode[],
  parsedText: string,
  language: LanguageInfo,
): string | undefined {
  const names = [...snippet.matchAll(metavariablePattern)].map((match) => match[0]);
  const longestName = names.reduce((longest, name) => Math.max(longest, name.length), 0);
  const nodeTexts = new Set(
    inside.filter((node) => node.end - node.start <= longestName).map((node) => parsedText.slice(node.start, node.end)),
  );
  return names.find((name) => !nodeTexts.has(substituteMetavariables(name, language.expandoChar)));
}

/**
 * The tolerant reading of a snippet that ast-grep reads as an ERROR node (Go `print('123')`, C++
 * `template <typename $T>`): only for the snippet parsed as written, as ast-grep parses it, and only
 * when napi then finds that reading in the snippet's own text.
 */
function errorNodeReading(
  root: SgNode,
  inspection: Inspection,
  context: WrappingContext,
  parsedText: string,
  snippet: string,
  language: LanguageInfo,
  problem: string,
): PatternReading | undefined {
  if (context.prefix !== "" || context.suffix !== "" || context.terminator !== undefined) return undefined;
  const node = patternRootOf(root);
  if (node.kind() !== "ERROR") return undefined;
  const inside = nodesWithin(inspection.inside, node.range());
  if (buriedMetavariable(snippet, inside, parsedText, language) !== undefined) return undefined;
  const reading: PatternReading = {
    context,
    kind: "ERROR",
    contextText: snippet,
    literals: literalsOf(inside, snippet),
    anyKind: true,
    tolerance: { kind: "errors", reason: problem },
  };
  try {
    return napi().parse(language.napiLang, parsedText).root().find(matcherOf(reading)) === null ? undefined : reading;
  } catch {
    // napi refuses some bare snippets our walk takes for one node (Ruby `case 1:`: "Multiple AST nodes
    // are detected"): its own check of a node's second child differs from a zero width; no reading then.
    return undefined;
  }
}

function tryContext(
  language: LanguageInfo,
  snippet: string,
  context: WrappingContext,
  asIsKeywords: Keywords,
): { outcome: PatternReading | RejectedContext; keywords: Keywords } {
  const terminator = context.terminator ?? "";
  const contextText = `${context.prefix}${snippet}${terminator}${context.suffix}`;
  // napi substitutes the grammar's expando character for the metavariables' `$` before parsing a
  // pattern, so the check must parse the same text (research astgrep.md §1.3).
  const parsedSnippet = substituteMetavariables(snippet, language.expandoChar);
  const parsedText = `${context.prefix}${parsedSnippet}${terminator}${context.suffix}`;
  const snippetSpan = { start: context.prefix.length, end: context.prefix.length + snippet.length };
  const terminatedEnd = terminator.length > 0 ? snippetSpan.end + terminator.length : undefined;
  let root: SgNode;
  try {
    root = napi().parse(language.napiLang, parsedText).root();
  } catch (error) {
    return {
      outcome: {
        context: context.name,
        reason: `the parser failed: ${error instanceof Error ? error.message : String(error)}`,
      },
      keywords: new Map(),
    };
  }
  const inspection = inspect(root, parsedText, snippetSpan, terminatedEnd, language);
  const keywords = keywordsOf(inspection.inside, parsedText, snippetSpan.start);
  const problem =
    inspection.problem === undefined
      ? undefined
      : describeProblem(inspection.problem, snippet, snippetSpan, contextText);
  if (inspection.spanning.length === 0)
    return {
      outcome: {
        context: context.name,
        reason: problem ?? "parsed, but no single syntax node spans exactly the snippet",
      },
      keywords,
    };
  const rootKind = root.kind();
  // Prefer a node spanning exactly the snippet over one that also spans the added terminator, and the
  // deepest named node (the most specific reading: `call_expression` rather than `expression_statement`).
  // An ERROR node spanning the snippet is a reading only as ast-grep reads the bare snippet (see
  // errorNodeReading), never with a selector: napi would then match only ERROR nodes.
  const ranked = [...inspection.spanning]
    .filter((candidate) => candidate.node.kind() !== rootKind && candidate.node.kind() !== "ERROR")
    .sort(
      (first, second) =>
        Number(second.exact) - Number(first.exact) ||
        Number(second.node.isNamed()) - Number(first.node.isNamed()) ||
        second.depth - first.depth,
    );
  if (ranked.length === 0) {
    const fallback =
      problem === undefined
        ? undefined
        : errorNodeReading(root, inspection, context, parsedText, snippet, language, problem);
    return {
      outcome: {
        context: context.name,
        reason: problem ?? "the snippet is several statements or declarations; a pattern must be one syntax node",
        ...(fallback === undefined ? {} : { fallback }),
      },
      keywords,
    };
  }
  let lastReason = "";
  let fallback: PatternReading | undefined;
  for (const candidate of ranked) {
    const kind = String(candidate.node.kind());
    const range = candidate.node.range();
    // napi's selector picks the FIRST node of that kind in pre-order, which may be the wrapper
    // itself (research astgrep.md §0.9); only a reading that selects the snippet's node is usable.
    let first: SgNode | null;
    try {
      first = root.find({ rule: { kind } });
    } catch (error) {
      lastReason = `kind \`${kind}\` cannot be selected: ${error instanceof Error ? error.message : String(error)}`;
      continue;
    }
    if (
      first === null ||
      first.range().start.index !== range.start.index ||
      first.range().end.index !== range.end.index
    ) {
      lastReason = `the wrapper itself contains a \`${kind}\` before the snippet`;
      continue;
    }
    // C++ `if ($A)` with `;` added is an `if` whose body is that `;`: it would match only `if (x);`.
    if (
      !candidate.exact &&
      !terminatorEndsStatement(inspection.inside, snippetSpan.end, snippetSpan.end + terminator.length, terminator)
    ) {
      lastReason = `the added \`${terminator}\` is read as code of its own inside \`${kind}\`, which changes the pattern's meaning`;
      continue;
    }
    const inside = nodesWithin(inspection.inside, range);
    const buried = buriedMetavariable(snippet, inside, parsedText, language);
    if (buried !== undefined) {
      return {
        outcome: {
          context: context.name,
          reason: `\`${buried}\` is inside a larger token here, so ast-grep would read it as literal text, not a metavariable`,
        },
        keywords,
      };
    }
    const demoted = keywordReadAsName(inside, parsedText, snippetSpan.start, asIsKeywords);
    if (demoted !== undefined) {
      lastReason = `the keyword \`${demoted}\` is read as a name here, which changes the pattern's meaning`;
      continue;
    }
    const reading: PatternReading = { context, kind, contextText, literals: literalsOf(inside, contextText) };
    if (!candidate.exact && terminator.length > 0) reading.spannedTerminator = terminator;
    const matcher = matcherOf(reading);
    // The reading must find its own node; otherwise napi would answer zero matches silently.
    let self: SgNode | null;
    try {
      self = napi().parse(language.napiLang, parsedText).root().find(matcher);
    } catch (error) {
      lastReason = `ast-grep refused the reading \`${kind}\`: ${error instanceof Error ? error.message : String(error)}`;
      continue;
    }
    if (self === null) {
      lastReason = `ast-grep cannot match the reading \`${kind}\` against itself`;
      // A clean reading can still match real code: JSON `[$A]` is no JSON, but ast-grep reads `$A` as
      // a metavariable and matches `[123]`. A tolerant one that cannot find itself is no reading.
      if (problem === undefined) fallback ??= { ...reading, tolerance: { kind: "unverified", reason: lastReason } };
      continue;
    }
    if (problem !== undefined) {
      fallback ??= { ...reading, tolerance: { kind: "errors", reason: problem } };
      continue;
    }
    return { outcome: reading, keywords };
  }
  return {
    outcome: { context: context.name, reason: problem ?? lastReason, ...(fallback === undefined ? {} : { fallback }) },
    keywords,
  };
}

/**
 * The napi rule of a reading: the context with the reading's kind as selector, or for an ERROR reading
 * ({@link PatternReading.anyKind}) the bare snippet, which napi reads as ast-grep does.
 */
export function matcherOf(reading: Pick<PatternReading, "contextText" | "kind" | "anyKind">): NapiConfig {
  if (reading.anyKind === true) return { rule: { pattern: reading.contextText } };
  return { rule: { pattern: { context: reading.contextText, selector: reading.kind } } };
}

function isReading(value: PatternReading | RejectedContext): value is PatternReading {
  return "kind" in value;
}

/** The trimmed snippet of a pattern that can be compiled at all. */
function checkedSnippet(pattern: string): string {
  assertPatternLength(pattern);
  const snippet = pattern.trim();
  if (snippet.length === 0) {
    throw new ToolError({
      code: "invalid_input",
      message: "The pattern is empty. Give a code snippet such as `foo($A)`.",
    });
  }
  if (/^\$\$?\$?[A-Z_][A-Z0-9_]*$|^\$\$\$$/.test(snippet)) {
    throw new ToolError({
      code: "invalid_input",
      message: `The pattern \`${snippet}\` is a lone metavariable and would match every node. Put code around it, for example \`foo(${snippet})\` or \`return ${snippet}\`.`,
    });
  }
  return snippet;
}

/** Each context's verdict on the snippet, computed lazily: one parse and walk per step. */
function* contextOutcomes(language: LanguageInfo, snippet: string): Generator<PatternReading | RejectedContext> {
  // The first context is the snippet as written: its keywords must stay keywords in any other reading.
  let asIsKeywords: Keywords | undefined;
  for (const context of wrappingContexts(language.id).contexts) {
    if (context.singleLine === true && snippet.includes("\n")) continue;
    const { outcome, keywords } = tryContext(language, snippet, context, asIsKeywords ?? new Map());
    asIsKeywords ??= keywords;
    yield outcome;
  }
}

/**
 * Compile a pattern for one language: try every wrapping context, keep the clean parses whose node
 * spans the snippet, and use the first one in the language's order whose kind is not a weak reading;
 * with `options.tolerant`, fall back to the best reading that is not clean.
 *
 * @throws ToolError `invalid_input` naming every context tried and where it broke, or the limit a
 * pattern too long or too deep exceeds.
 */
export function compilePattern(language: LanguageInfo, pattern: string, options: CompileOptions = {}): CompiledPattern {
  const snippet = checkedSnippet(pattern);
  return chooseReading(language, snippet, [...contextOutcomes(language, snippet)], options);
}

/**
 * {@link compilePattern}, yielding to the event loop after each context (one can take a few hundred
 * milliseconds on a long pattern), so the call's budget and cancellation stay in force.
 *
 * @throws the signal's abort error when it aborts between two contexts.
 */
export async function compilePatternYielding(
  language: LanguageInfo,
  pattern: string,
  signal: AbortSignal | undefined,
  options: CompileOptions = {},
): Promise<CompiledPattern> {
  const snippet = checkedSnippet(pattern);
  const outcomes: Array<PatternReading | RejectedContext> = [];
  for (const outcome of contextOutcomes(language, snippet)) {
    outcomes.push(outcome);
    await yieldToEventLoop();
    throwIfAborted(signal);
  }
  return chooseReading(language, snippet, outcomes, options);
}

const metavariableAdvice =
  "Write one complete expression, statement or declaration; metavariables are `$NAME` (one node), `$$$NAME` (any number of nodes) and `$_` (one node, not captured).";

function unparseable(snippet: string, languageId: string, tried: string): ToolError {
  return new ToolError({
    code: "invalid_input",
    message: `The pattern \`${snippet.slice(0, 200)}\` does not parse as ${languageId} code in any context. Tried — ${tried}. ${metavariableAdvice}`,
  });
}

/** Where a clean reading's node lies in its context text, for {@link astGrepAgrees}. */
function contextReadingOf(reading: PatternReading, snippet: string): ContextReading {
  const snippetStart = reading.context.prefix.length;
  return {
    contextText: reading.contextText,
    snippetStart,
    nodeEnd: snippetStart + snippet.length + (reading.spannedTerminator?.length ?? 0),
    kind: reading.kind,
  };
}

/**
 * The reading to use: the first non-weak one in the language's order that ast-grep's own
 * reading of the bare snippet agrees with, so that a pattern finds what the ast-grep CLI finds
 * (Go `interface{}` is an `interface_type`, not the `type_elem` of an interface body); when ast-grep
 * agrees with none, the first. A weak kind is used only when there is no other reading: the CLI's
 * reading of Go `fmt.Println(x)` is a type conversion, which finds no call.
 */
function preferred(
  language: LanguageInfo,
  snippet: string,
  readings: readonly PatternReading[],
  weakKinds: readonly string[],
): PatternReading | undefined {
  const strong = readings.filter((reading) => !weakKinds.includes(reading.kind));
  if (strong.length === 0) return readings[0];
  return strong.length === 1
    ? strong[0]
    : (strong.find((reading) => astGrepAgrees(language, snippet, contextReadingOf(reading, snippet))) ?? strong[0]);
}

function chooseReading(
  language: LanguageInfo,
  snippet: string,
  outcomes: ReadonlyArray<PatternReading | RejectedContext>,
  options: CompileOptions,
): CompiledPattern {
  const { weakKinds } = wrappingContexts(language.id);
  const readings = outcomes.filter(isReading);
  const rejected = outcomes.filter((outcome): outcome is RejectedContext => !isReading(outcome));
  const tried = rejected.map((entry) => `${entry.context}: ${entry.reason}`).join("; ");
  // No clean reading: ast-grep itself then reads the snippet as written, ignoring MISSING nodes and
  // matching ERROR nodes as they are, so do the same rather than lose its matches. Only the first
  // context's reading is ast-grep's: another context's tolerant reading (TypeScript `foo(;` with a
  // missing `)`) would match code ast-grep does not (`foo(1)`).
  const first = outcomes[0];
  const chosen =
    preferred(language, snippet, readings, weakKinds) ??
    (options.tolerant === true && first !== undefined && !isReading(first) ? first.fallback : undefined);
  if (chosen === undefined) throw unparseable(snippet, language.id, tried);
  const seenKinds = new Set([chosen.kind]);
  const alternatives = readings.filter((reading) => {
    if (seenKinds.has(reading.kind)) return false;
    seenKinds.add(reading.kind);
    return true;
  });
  return {
    language,
    snippet,
    reading: chosen,
    alternatives,
    matcher: matcherOf(chosen),
    captures: metavariableNames(snippet),
    hints: hintsFor(snippet),
    ...(chosen.tolerance === undefined ? {} : { tolerant: { tried } }),
  };
}

/**
 * The refusal for a search that found nothing when every language's pattern had only a tolerant
 * reading: a zero then says nothing about the code, so the pattern is reported as unparseable, naming
 * the contexts tried (never a silent zero). Undefined when some reading was clean.
 */
export function tolerantReadingsFoundNothing(compiled: readonly CompiledPattern[]): ToolError | undefined {
  const first = compiled[0];
  if (first?.tolerant === undefined || compiled.some((each) => each.tolerant === undefined)) return undefined;
  return unparseable(
    first.snippet,
    compiled.map((each) => each.language.id).join(" or "),
    `${first.tolerant.tried}; its best tolerant reading, \`${first.reading.kind}\` (${first.reading.context.name}), found nothing`,
  );
}

/**
 * Refuse a search's answer that is a zero from tolerant readings alone (see
 * {@link tolerantReadingsFoundNothing}); ast_grep and ast_edit call it on every outcome.
 * @throws ToolError `invalid_input` naming the contexts tried, when `total` is 0 and no reading was clean.
 */
export function assertTolerantReadingsFound(outcome: { total: number; compiled: readonly CompiledPattern[] }): void {
  const refusal = outcome.total === 0 ? tolerantReadingsFoundNothing(outcome.compiled) : undefined;
  if (refusal !== undefined) throw refusal;
}

/** A reading as the pattern object that asks for it (`{"context": …, "selector": …}`), to pass back as `pattern`. */
export function patternObjectOf(reading: PatternReading): { context: string; selector: string } {
  return { context: reading.contextText, selector: reading.kind };
}

/** One line saying how a pattern was read, for results. */
export function describeReading(compiled: CompiledPattern): string {
  if (compiled.given === true)
    return `read as given: \`${compiled.reading.kind}\` selected in the context \`${compiled.reading.contextText.slice(0, 200)}\` in ${compiled.language.id}`;
  const others = compiled.alternatives
    .map(
      (reading) =>
        `\`${reading.kind}\` (${reading.context.name}; pass \`pattern\` ${JSON.stringify(patternObjectOf(reading))} to search it)`,
    )
    .join(", ");
  const read =
    compiled.reading.anyKind === true
      ? `read as an ERROR node (context: ${compiled.reading.context.name}) in ${compiled.language.id}, which ast-grep matches against code of any kind with the same parts`
      : `read as \`${compiled.reading.kind}\` (context: ${compiled.reading.context.name}) in ${compiled.language.id}`;
  const tolerance = compiled.reading.tolerance;
  if (tolerance !== undefined) {
    const why =
      tolerance.kind === "errors"
        ? `it parsed with errors (${tolerance.reason})`
        : `no context reads it cleanly (${tolerance.reason})`;
    return `${read}; ${why}, so this is ast-grep's best tolerant reading and matches may be looser or fewer than meant. Contexts tried — ${compiled.tolerant?.tried ?? ""}`;
  }
  return `${read}${others.length > 0 ? `; it would also parse as ${others}` : ""}`;
}
