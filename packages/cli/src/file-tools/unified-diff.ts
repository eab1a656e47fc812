import { ToolError } from "@runbound/tool-kit";

/** One line of a hunk. */
export interface HunkLine {
  kind: " " | "-" | "+";
  text: string;
}

/** One `@@ … @@` section. */
export interface Hunk {
  header: string;
  oldStart: number;
  lines: HunkLine[];
  /** The old side ends without a newline (`\ No newline at end of file` after a removed/context line). */
  oldMissingNewline: boolean;
  /** The new side ends without a newline. */
  newMissingNewline: boolean;
}

/** The changes to one file. `null` paths are `/dev/null`: a created or deleted file. */
export interface FilePatch {
  oldPath: string | null;
  newPath: string | null;
  hunks: Hunk[];
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function invalidPatch(problem: string): ToolError {
  return new ToolError({ code: "invalid_input", message: `The patch is not a valid unified diff: ${problem} Send a unified diff with \`--- a/path\`, \`+++ b/path\` and \`@@ -l,n +l,n @@\` hunks.` });
}

/** `\ No newline at end of file` applies to the line before it: the old side, the new side, or both (context). */
function markMissingNewline(hunk: Hunk): void {
  const last = hunk.lines.at(-1);
  if (last === undefined) return;
  if (last.kind !== "+") hunk.oldMissingNewline = true;
  if (last.kind !== "-") hunk.newMissingNewline = true;
}

function headerPath(line: string, prefix: "a/" | "b/"): string | null {
  const raw = line.slice(4).split("\t")[0]!.trim();
  if (raw === "/dev/null") return null;
  return raw.startsWith(prefix) ? raw.slice(2) : raw;
}

/** Parse a unified diff (git or plain `diff -u` style) into per-file patches. */
export function parseUnifiedDiff(patch: string): FilePatch[] {
  const lines = patch.replace(/\r\n/g, "\n").split("\n");
  const files: FilePatch[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (!line.startsWith("--- ")) {
      index += 1;
      continue;
    }
    const plus = lines[index + 1];
    if (plus === undefined || !plus.startsWith("+++ ")) throw invalidPatch(`line ${index + 1} (\`${line}\`) is not followed by a \`+++\` line.`);
    const file: FilePatch = { oldPath: headerPath(line, "a/"), newPath: headerPath(plus, "b/"), hunks: [] };
    if (file.oldPath === null && file.newPath === null) throw invalidPatch(`line ${index + 1} names /dev/null on both sides.`);
    index += 2;
    while (index < lines.length && lines[index]!.startsWith("@@")) {
      const header = lines[index]!;
      const match = hunkHeader.exec(header);
      if (match === null) throw invalidPatch(`hunk header \`${header}\` on line ${index + 1} is malformed.`);
      let oldRemaining = match[2] === undefined ? 1 : Number(match[2]);
      let newRemaining = match[4] === undefined ? 1 : Number(match[4]);
      const hunk: Hunk = { header, oldStart: Number(match[1]), lines: [], oldMissingNewline: false, newMissingNewline: false };
      index += 1;
      while (oldRemaining > 0 || newRemaining > 0) {
        const body = lines[index];
        if (body === undefined) throw invalidPatch(`hunk \`${header}\` ends early; ${oldRemaining} old and ${newRemaining} new lines are missing.`);
        // Some editors strip the single space of an empty context line.
        const kind = body === "" ? " " : body[0];
        if (kind === "\\") {
          markMissingNewline(hunk);
          index += 1;
          continue;
        }
        if (kind !== " " && kind !== "-" && kind !== "+") throw invalidPatch(`line ${index + 1} (\`${body}\`) in hunk \`${header}\` starts with neither space, \`-\` nor \`+\`.`);
        hunk.lines.push({ kind, text: body.slice(1) });
        if (kind !== "+") oldRemaining -= 1;
        if (kind !== "-") newRemaining -= 1;
        if (oldRemaining < 0 || newRemaining < 0) throw invalidPatch(`hunk \`${header}\` has more lines than its header counts.`);
        index += 1;
      }
      if (lines[index]?.startsWith("\\")) {
        markMissingNewline(hunk);
        index += 1;
      }
      file.hunks.push(hunk);
    }
    if (file.hunks.length === 0) throw invalidPatch(`the section for \`${file.newPath ?? file.oldPath}\` has no hunks.`);
    files.push(file);
  }
  if (files.length === 0) throw invalidPatch("no `---`/`+++` file header was found.");
  return files;
}

function findBlock(lines: readonly string[], block: readonly string[], expectedAt: number): number {
  const fits = (at: number) => at >= 0 && at + block.length <= lines.length && block.every((text, offset) => lines[at + offset] === text);
  // Search outward from where the header says, so a patch made against a slightly shifted file still applies at the nearest match.
  for (let distance = 0; distance <= lines.length; distance += 1) {
    if (fits(expectedAt - distance)) return expectedAt - distance;
    if (distance > 0 && fits(expectedAt + distance)) return expectedAt + distance;
  }
  return -1;
}

/**
 * Apply one file's hunks to its content (`null` for a file that does not exist yet).
 *
 * @returns the new content, or `null` when the file is deleted.
 * @throws ToolError `conflict` quoting the hunk whose old lines are not in the file.
 */
export function applyFilePatch(content: string | null, file: FilePatch, shownPath: string): string | null {
  const eol = content?.includes("\r\n") ? "\r\n" : "\n";
  const lines = content === null || content === "" ? [] : content.split(/\r?\n/);
  let endsWithNewline = true;
  if (lines.at(-1) === "") lines.pop();
  else if (content !== null && content !== "") endsWithNewline = false;
  let delta = 0;
  for (const hunk of file.hunks) {
    const oldBlock = hunk.lines.filter((line) => line.kind !== "+").map((line) => line.text);
    const newBlock = hunk.lines.filter((line) => line.kind !== "-").map((line) => line.text);
    // A hunk without old lines inserts after line `oldStart`; otherwise its old lines start at line `oldStart`.
    const expectedAt = Math.max(0, (oldBlock.length === 0 ? hunk.oldStart : hunk.oldStart - 1) + delta);
    const at = oldBlock.length === 0 ? Math.min(expectedAt, lines.length) : findBlock(lines, oldBlock, expectedAt);
    if (at === -1) {
      throw new ToolError({
        code: "conflict",
        message: `Nothing was written: hunk \`${hunk.header}\` does not apply to \`${shownPath}\`; its old lines (starting \`${oldBlock[0] ?? ""}\`) are not in the file. Read the file and make the patch against its current content.`,
      });
    }
    lines.splice(at, oldBlock.length, ...newBlock);
    delta += newBlock.length - oldBlock.length;
    if (hunk.newMissingNewline) endsWithNewline = false;
    else if (hunk.oldMissingNewline) endsWithNewline = true;
  }
  if (file.newPath === null) {
    if (lines.length > 0) {
      throw new ToolError({ code: "conflict", message: `Nothing was written: the patch deletes \`${shownPath}\`, but ${lines.length} lines of it are not in the patch. Make the patch against the file's current content.` });
    }
    return null;
  }
  return lines.length === 0 ? "" : lines.join(eol) + (endsWithNewline ? eol : "");
}
