import { displayPath } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import { readFileSync } from "node:fs";
import type { LanguageInfo } from "./language-info.js";
import { napi } from "./napi-binding.js";
import type { SearchMatch } from "./search-match.js";
import type { StagedFile } from "./staged-edit-store.js";
import type { ErrorRegion } from "./syntax-error-ledger.js";
import { expandTemplate } from "./template-expansion.js";
import type { Span } from "./fix-expansion.js";
import { lineOf, lineStarts } from "./line-starts.js";

/** A match left out because it overlaps one that is rewritten (e.g. an inner call inside an outer one). */
export interface OverlappingMatch {
  displayPath: string;
  line: number;
  text: string;
  /** The line of the kept match it overlaps. */
  keptLine: number;
}

/** A match left out because its span overlaps code the grammar could not parse: rewriting it would write garbage. */
export interface MatchInErrorRegion {
  displayPath: string;
  line: number;
  /** The line where the ERROR region it overlaps starts. */
  errorLine: number;
}

/** A planned rewrite, ready to stage. */
export interface RewritePlan {
  files: StagedFile[];
  overlaps: OverlappingMatch[];
  inErrorRegions: MatchInErrorRegion[];
  /** Matches whose rewrite equals the original code. */
  unchanged: number;
  /** Files whose rewritten content has more parse errors than before. */
  newParseErrors: Array<{ displayPath: string; before: number; after: number }>;
  /** A bounded preview of the changed lines. */
  preview: string;
}

interface Replacement {
  start: number;
  end: number;
  text: string;
}

function applyReplacements(text: string, replacements: readonly Replacement[], offset = 0): string {
  let output = "";
  let cursor = 0;
  for (const replacement of replacements) {
    output += text.slice(cursor, replacement.start - offset) + replacement.text;
    cursor = replacement.end - offset;
  }
  return output + text.slice(cursor);
}

const previewLineLength = 240;

function commonPrefixLength(first: string, second: string): number {
  let index = 0;
  while (index < first.length && index < second.length && first[index] === second[index]) index += 1;
  return index;
}

/** A long line (minified code) shown as a window around `focus`, so one line cannot eat the whole preview. */
function clipLine(line: string, focus: number): string {
  if (line.length <= previewLineLength) return line;
  const start = Math.max(0, Math.min(focus - 60, line.length - previewLineLength));
  const end = start + previewLineLength;
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

function previewHunks(display: string, original: string, replacements: readonly Replacement[]): string[] {
  const starts = lineStarts(original);
  const hunks: string[] = [];
  let index = 0;
  while (index < replacements.length) {
    const firstLine = lineOf(starts, replacements[index]!.start);
    let lastLine = lineOf(starts, Math.max(replacements[index]!.start, replacements[index]!.end - 1));
    let end = index + 1;
    // Replacements touching the same lines form one hunk.
    while (end < replacements.length && lineOf(starts, replacements[end]!.start) <= lastLine) {
      lastLine = Math.max(lastLine, lineOf(starts, Math.max(replacements[end]!.start, replacements[end]!.end - 1)));
      end += 1;
    }
    const from = starts[firstLine]!;
    const newlineAfter = original.indexOf("\n", starts[lastLine]!);
    const to =
      newlineAfter === -1 ? original.length : original[newlineAfter - 1] === "\r" ? newlineAfter - 1 : newlineAfter;
    const before = original.slice(from, to);
    const after = applyReplacements(before, replacements.slice(index, end), from);
    const beforeLines = before.split(/\r?\n/);
    const afterLines = after.split(/\r?\n/);
    const focus = (line: number): number => commonPrefixLength(beforeLines[line] ?? "", afterLines[line] ?? "");
    const minus = beforeLines.map((line, number) => `- ${clipLine(line, focus(number))}`);
    const plus = afterLines.map((line, number) => `+ ${clipLine(line, focus(number))}`);
    hunks.push([`${display}:${firstLine + 1}`, ...minus, ...plus].join("\n"));
    index = end;
  }
  return hunks;
}

function syntaxErrorCount(language: LanguageInfo, text: string): number {
  const root = napi().parse(language.napiLang, text).root();
  // A MISSING node (a `}` the parser assumed) is zero-width; napi has no isMissing() (research astgrep.md §2).
  const missing = root.findAll({ rule: { regex: "^$" } }).filter((node) => node.parent() !== null).length;
  return root.findAll({ rule: { kind: "ERROR" } }).length + missing;
}

/**
 * Turn matches into new file contents: read each file, check the matched code is still there, keep
 * non-overlapping matches (the first by position wins, the others are reported), expand the rewrite
 * for each and splice it in.
 *
 * @throws ToolError `conflict` when a file changed while it was being searched.
 */
export function planRewrite(
  workdir: string,
  matches: readonly SearchMatch[],
  rewrite: string,
  languages: ReadonlyMap<string, LanguageInfo>,
  errorRegions: ReadonlyMap<string, readonly ErrorRegion[]>,
  previewBytes: number,
  /** The range each match's rewrite replaces when a fix expands it (a file's content → match → span); default the match's own. */
  spansOf?: (original: string, matches: readonly SearchMatch[]) => ReadonlyMap<SearchMatch, Span>,
): RewritePlan {
  const byFile = new Map<string, SearchMatch[]>();
  for (const match of matches) {
    let list = byFile.get(match.path);
    if (list === undefined) byFile.set(match.path, (list = []));
    list.push(match);
  }
  const plan: RewritePlan = {
    files: [],
    overlaps: [],
    inErrorRegions: [],
    unchanged: 0,
    newParseErrors: [],
    preview: "",
  };
  const hunks: string[] = [];
  for (const [path, fileMatches] of [...byFile].sort(([first], [second]) => (first < second ? -1 : 1))) {
    const display = displayPath(workdir, path);
    const original = readFileSync(path, "utf8");
    const starts = lineStarts(original);
    const replacements: Replacement[] = [];
    const regions = errorRegions.get(path) ?? [];
    const spans = spansOf?.(original, fileMatches);
    let kept: Span | undefined;
    for (const match of [...fileMatches].sort(
      (first, second) => first.start - second.start || second.end - first.end,
    )) {
      if (original.slice(match.start, match.end) !== match.text) {
        throw new ToolError({
          code: "conflict",
          message: `\`${display}\` changed while it was being searched. Run ast_edit again.`,
        });
      }
      const span = spans?.get(match) ?? { start: match.start, end: match.end };
      if (kept !== undefined && span.start < kept.end) {
        plan.overlaps.push({
          displayPath: display,
          line: lineOf(starts, match.start) + 1,
          text: match.text,
          keptLine: lineOf(starts, kept.start) + 1,
        });
        continue;
      }
      const region = regions.find((candidate) => candidate.start < span.end && span.start < candidate.end);
      if (region !== undefined) {
        plan.inErrorRegions.push({
          displayPath: display,
          line: lineOf(starts, match.start) + 1,
          errorLine: region.line + 1,
        });
        continue;
      }
      kept = span;
      let text = expandTemplate(rewrite, match.captures, original, match.start);
      // The match took the statement's terminator with it (Dart calls: research astgrep.md §2); give it back.
      if (match.terminator !== undefined && !text.trimEnd().endsWith(match.terminator)) text += match.terminator;
      if (text === original.slice(span.start, span.end)) {
        plan.unchanged += 1;
        continue;
      }
      replacements.push({ start: span.start, end: span.end, text });
    }
    if (replacements.length === 0) continue;
    const updated = applyReplacements(original, replacements);
    plan.files.push({ path, displayPath: display, original, updated, replacements: replacements.length });
    hunks.push(...previewHunks(display, original, replacements));
    const language = languages.get(fileMatches[0]!.language);
    if (language !== undefined) {
      const before = syntaxErrorCount(language, original);
      const after = syntaxErrorCount(language, updated);
      if (after > before) plan.newParseErrors.push({ displayPath: display, before, after });
    }
  }
  let bytes = 0;
  const shown: string[] = [];
  for (const hunk of hunks) {
    bytes += Buffer.byteLength(hunk) + 1;
    if (bytes > previewBytes) break;
    shown.push(hunk);
  }
  const hidden = hunks.length - shown.length;
  plan.preview =
    shown.join("\n") +
    (hidden > 0 ? `\n… ${hidden} more changed ${hidden === 1 ? "place" : "places"} not shown (all are staged).` : "");
  return plan;
}
