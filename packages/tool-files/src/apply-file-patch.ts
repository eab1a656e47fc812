import { ToolError } from "@runbound/tool-kit";
import { runSteps, runStepsYielding, type Steps } from "./run-steps.js";
import type { FilePatch, Hunk } from "./file-patch.js";

/** A line of a file with its own ending (`""` for a last line without a newline). */
interface FileLine {
  text: string;
  eol: string;
}

/**
 * How many line comparisons the search for shifted hunks may make in one file by default (about a
 * tenth of a second of CPU). A patch whose line numbers are right needs one comparison per old line;
 * only hunks far from where their headers place them, in a file of many similar lines, come near it.
 */
export const maxSearchComparisons = 20_000_000;

/** Limits of one {@link applyFilePatch}. */
export interface ApplyFilePatchSettings {
  /** The most line comparisons the search for shifted hunks may make; {@link maxSearchComparisons} by default. */
  maxSearchComparisons?: number;
}

/** How many candidate places, or hunks, are tried between two chances to yield. */
const stepSize = 1024;

function splitLines(content: string): FileLine[] {
  const parts = content.split("\n");
  const lines = parts
    .slice(0, -1)
    .map((part) => (part.endsWith("\r") ? { text: part.slice(0, -1), eol: "\r\n" } : { text: part, eol: "\n" }));
  const last = parts.at(-1)!;
  if (last !== "") lines.push({ text: last, eol: "" });
  return lines;
}

function conflict(hunk: Hunk, shownPath: string, problem: string): ToolError {
  return new ToolError({
    code: "conflict",
    message: `Nothing was written: hunk \`${hunk.header}\` does not apply to \`${shownPath}\`; ${problem} Read the file and make the patch against its current content.`,
  });
}

/** Counts the comparisons of every search in one file against the most allowed. */
interface SearchBudget {
  used: number;
  most: number;
}

/**
 * Where `block` starts in `lines`, searching no earlier than `from` (hunks apply in order and do not
 * overlap) and no later than the last place it fits: the search is bounded by the file, never by the
 * header's number. Like `git apply`, it tries the header's place, then one line after, one before, two
 * after, …, so a patch made against a shifted file lands on the nearest copy.
 */
function* findBlock(
  lines: readonly FileLine[],
  block: readonly string[],
  expectedAt: number,
  from: number,
  budget: SearchBudget,
): Steps<number> {
  const last = lines.length - block.length;
  const start = Math.max(from, Math.min(expectedAt, last));
  const fits = (at: number): boolean => {
    for (let offset = 0; offset < block.length; offset += 1) {
      budget.used += 1;
      if (lines[at + offset]!.text !== block[offset]) return false;
    }
    return true;
  };
  for (let distance = 0; start + distance <= last || start - distance >= from; distance += 1) {
    if (budget.used > budget.most) return -2;
    if (distance % stepSize === stepSize - 1) yield;
    if (start + distance <= last && fits(start + distance)) return start + distance;
    if (distance > 0 && start - distance >= from && fits(start - distance)) return start - distance;
  }
  return -1;
}

/** Where a hunk's old lines start in the original file (0-based), or a `conflict` saying why there is no such place. */
function* placeHunk(
  lines: readonly FileLine[],
  hunk: Hunk,
  oldBlock: readonly string[],
  from: number,
  shownPath: string,
  budget: SearchBudget,
): Steps<number> {
  // A hunk without old lines inserts after line `oldStart`; otherwise its old lines start at line `oldStart`.
  const expectedAt = oldBlock.length === 0 ? hunk.oldStart : hunk.oldStart - 1;
  if (expectedAt > lines.length || (oldBlock.length > 0 && expectedAt === lines.length)) {
    throw conflict(hunk, shownPath, `it starts at line ${hunk.oldStart}, but the file has only ${lines.length} lines.`);
  }
  if (oldBlock.length === 0) {
    if (expectedAt < from)
      throw conflict(
        hunk,
        shownPath,
        `it inserts after line ${hunk.oldStart}, inside or before the previous hunk, which ends at line ${from}. Order the hunks by line.`,
      );
    return expectedAt;
  }
  const at = yield* findBlock(lines, oldBlock, expectedAt, from, budget);
  if (at === -2) {
    throw new ToolError({
      code: "invalid_input",
      message: `Nothing was written: hunk \`${hunk.header}\` is far from where its header places it in \`${shownPath}\`, and searching for it took more than ${budget.most} line comparisons. Fix the line numbers in the \`@@\` headers.`,
    });
  }
  if (at === -1) {
    const after = from > 0 ? ` after line ${from}, where the previous hunk ends` : "";
    throw conflict(hunk, shownPath, `its old lines (starting \`${oldBlock[0]}\`) are not in the file${after}.`);
  }
  return at;
}

function* applySteps(
  content: string | null,
  file: FilePatch,
  shownPath: string,
  settings: ApplyFilePatchSettings,
): Steps<string | null> {
  const lines = splitLines(content ?? "");
  const crlfCount = lines.filter((line) => line.eol === "\r\n").length;
  const prevailingEol = crlfCount > lines.length - crlfCount ? "\r\n" : "\n";
  let endsWithNewline = lines.length === 0 || lines.at(-1)!.eol !== "";
  const budget: SearchBudget = { used: 0, most: settings.maxSearchComparisons ?? maxSearchComparisons };
  // The result is built front to back from the original lines, so each hunk costs its own length
  // (no splicing a growing array), and every position is in the original file's lines, as headers count them.
  const result: FileLine[] = [];
  let cursor = 0;
  for (const [index, hunk] of file.hunks.entries()) {
    if (index % stepSize === stepSize - 1) yield;
    const oldBlock = hunk.lines.filter((line) => line.kind !== "+").map((line) => line.text);
    const at = yield* placeHunk(lines, hunk, oldBlock, cursor, shownPath, budget);
    for (; cursor < at; cursor += 1) result.push(lines[cursor]!);
    for (const line of hunk.lines) {
      if (line.kind === "+") result.push({ text: line.text, eol: line.eol ?? prevailingEol });
      else if (line.kind === " ") result.push(lines[cursor++]!);
      else cursor += 1;
    }
    // Only a hunk that reaches the end of the file says whether the file ends with a newline.
    if (cursor === lines.length) endsWithNewline = !hunk.newMissingNewline;
  }
  for (; cursor < lines.length; cursor += 1) result.push(lines[cursor]!);
  if (file.newPath === null) {
    if (result.length > 0) {
      throw new ToolError({
        code: "conflict",
        message: `Nothing was written: the patch deletes \`${shownPath}\`, but ${result.length} lines of it are not in the patch. Make the patch against the file's current content.`,
      });
    }
    return null;
  }
  // A line that ended the file may now be followed by others; only the last line may lack a newline.
  return result
    .map((line, index) => {
      if (index === result.length - 1 && !endsWithNewline) return line.text;
      return line.text + (line.eol === "" ? prevailingEol : line.eol);
    })
    .join("");
}

/**
 * Apply one file's hunks to its content (`null` for a file that does not exist yet). Lines the patch
 * does not touch keep their own endings; added lines take the ending the patch gives them or, when
 * it gives none, the file's prevailing one. Hunks apply in order, each after the one before it, at
 * the place its header names or, when the file has shifted, at the nearest place its old lines are.
 *
 * @returns the new content, or `null` when the file is deleted.
 * @throws ToolError `conflict` quoting the hunk whose old lines are not in the file, or whose start
 * lies past the file's end; `invalid_input` when finding a shifted hunk takes more than
 * `settings.maxSearchComparisons`.
 */
export function applyFilePatch(
  content: string | null,
  file: FilePatch,
  shownPath: string,
  settings: ApplyFilePatchSettings = {},
): string | null {
  return runSteps(applySteps(content, file, shownPath, settings));
}

/**
 * {@link applyFilePatch}, giving the event loop its turn about every 10 ms, so a call's budget and
 * cancellation stop a long application.
 *
 * @throws the signal's reason once `signal` aborts.
 */
export function applyFilePatchYielding(
  content: string | null,
  file: FilePatch,
  shownPath: string,
  signal?: AbortSignal,
  settings: ApplyFilePatchSettings = {},
): Promise<string | null> {
  return runStepsYielding(applySteps(content, file, shownPath, settings), signal);
}
