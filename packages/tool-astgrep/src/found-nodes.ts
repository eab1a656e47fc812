import type { NapiConfig, SgNode } from "@ast-grep/napi";
import type { CompiledPattern } from "./pattern-compiler.js";
import type { Capture, SearchMatch } from "./search-match.js";

/** Turn a matched node into a {@link SearchMatch}: its text, span and captures (a few FFI calls each). */
export function materialize(node: SgNode, path: string, compiled: CompiledPattern, hasBom: boolean): SearchMatch {
  const range = node.range();
  const text = node.text();
  const captures: Record<string, Capture> = {};
  for (const name of compiled.captures.single) {
    const captured = node.getMatch(name);
    if (captured === null) continue;
    const capturedRange = captured.range();
    captures[name] = {
      text: captured.text(),
      start: capturedRange.start.index,
      end: capturedRange.end.index,
      multi: false,
    };
  }
  for (const name of compiled.captures.multi) {
    const nodes = node.getMultipleMatches(name);
    const first = nodes[0];
    const last = nodes[nodes.length - 1];
    if (first === undefined || last === undefined) {
      captures[name] = { text: "", start: -1, end: -1, multi: true };
      continue;
    }
    // getMultipleMatches returns separator tokens too; the source slice from the first to the last
    // node keeps the original separators and spacing (research astgrep.md §0.5).
    const start = first.range().start.index;
    const end = last.range().end.index;
    captures[name] = { text: text.slice(start - range.start.index, end - range.start.index), start, end, multi: true };
  }
  // A rule's `transform` defines metavariables of its own: their text, with no span in the file.
  for (const name of compiled.transformed ?? []) {
    const text = node.getTransformed(name);
    if (text !== null) captures[name] = { text, start: -1, end: -1, multi: false };
  }
  const terminator = compiled.reading.spannedTerminator;
  return {
    ...(terminator === undefined ? {} : { terminator }),
    path,
    language: compiled.language.id,
    line: range.start.line,
    // napi counts a UTF-8 BOM as a character of the first line; editors do not.
    column: range.start.column - (hasBom && range.start.line === 0 ? 1 : 0),
    endLine: range.end.line,
    start: range.start.index,
    end: range.end.index,
    text,
    captures,
  };
}

/**
 * The pattern or an ERROR node, and for a rewrite a MISSING node too (napi shows one only as a
 * zero-width node): they come back in the same pass over each tree that finds the matches, so naming
 * the files the grammar could not read costs no second walk (napi exposes no `hasError` of a tree).
 * The ERROR kind test is free; the zero-width test compares every node's text, measured at 10–30 %
 * more CPU, so a plain search leaves it out: a MISSING node is a token the parser assumed (a `)`),
 * no code is lost and no match is missing. A zero-width node of the reading's own kind is left out:
 * it cannot match a pattern, which is never empty, and must not be taken for a match.
 */
export function withSyntaxErrors(compiled: CompiledPattern, rewriting: boolean): NapiConfig {
  // A rule's matches may be of any kind: sortFound asks napi which zero-width nodes it matched.
  const missing = rewriting
    ? [
        compiled.rule === undefined
          ? { all: [{ regex: "^$" }, { not: { kind: compiled.reading.kind } }] }
          : { regex: "^$" },
      ]
    : [];
  return { ...compiled.matcher, rule: { any: [compiled.matcher.rule, { kind: "ERROR" }, ...missing] } };
}

/** The nodes a {@link withSyntaxErrors} rule found in one file, sorted out. */
export interface SortedNodes {
  matches: readonly SgNode[];
  errors: readonly SgNode[];
  missing: readonly SgNode[];
}

/** Sort what {@link withSyntaxErrors} found in one file into matches, ERROR nodes and MISSING nodes. */
export function sortFound(found: readonly SgNode[], compiled: CompiledPattern): SortedNodes {
  const kinds = found.map((node) => node.kind());
  if (compiled.reading.anyKind === true) {
    // An ERROR reading matches nodes of any kind, ERROR nodes of the file included, so the kind cannot
    // tell a match from a syntax error: ask napi (one call per found node; such readings are rare). An
    // ERROR node that matches is both: a rewrite of it is then refused as inside misparsed code.
    const matched = found.map((node) => node.matches(compiled.matcher));
    return {
      matches: found.filter((_, index) => matched[index]),
      errors: found.filter((_, index) => kinds[index] === "ERROR"),
      missing: found.filter((node, index) => !matched[index] && kinds[index] !== "ERROR" && node.parent() !== null),
    };
  }
  // Every match has the reading's kind (it is the pattern's selector); see withSyntaxErrors for the rest.
  const kind = compiled.reading.kind;
  if (kinds.every((each) => each === kind)) return { matches: found, errors: [], missing: [] };
  return {
    matches: found.filter((_, index) => kinds[index] === kind),
    errors: found.filter((_, index) => kinds[index] === "ERROR"),
    // A zero-width root is an empty file, not a token the parser assumed.
    missing: found.filter((node, index) => kinds[index] !== kind && kinds[index] !== "ERROR" && node.parent() !== null),
  };
}
