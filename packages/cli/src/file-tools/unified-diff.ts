import { ToolError } from "@runbound/tool-kit";
import { readGitPath } from "./git-quoted-path.js";

/** One line of a hunk. */
export interface HunkLine {
  kind: " " | "-" | "+";
  text: string;
  /** The line's ending as the patch carries it, or `undefined` when the patch does not tell (no CR anywhere in it). */
  eol?: "\n" | "\r\n";
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

/**
 * The changes to one file. `null` paths are `/dev/null`: a created or deleted file. Different old and
 * new paths are a rename (or a copy, with `copy`), as git writes them.
 */
export interface FilePatch {
  oldPath: string | null;
  newPath: string | null;
  hunks: Hunk[];
  /** `copy from`/`copy to`: the old file stays. */
  copy?: boolean;
  /** A git mode change (`old mode`/`new mode`), which apply_patch does not apply. */
  newMode?: string;
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

function stripPrefix(path: string, prefix: "a/" | "b/"): string {
  return path.startsWith(prefix) ? path.slice(2) : path;
}

/** The path of a `---`/`+++` line: git quotes unusual names and ends names with spaces by a tab. */
function headerPath(line: string, prefix: "a/" | "b/"): string | null {
  const text = line.slice(4).trimEnd();
  const raw = text.startsWith('"') ? (readGitPath(text)?.path ?? text) : text.split("\t")[0]!.trim();
  return raw === "/dev/null" ? null : stripPrefix(raw, prefix);
}

/** The path of `diff --git a/P b/P` when both sides name the same file (the only case git leaves unambiguous). */
function gitLinePath(line: string): string | undefined {
  const text = line.slice("diff --git ".length).trimEnd();
  if (text.startsWith('"')) {
    const first = readGitPath(text);
    return first === undefined ? undefined : stripPrefix(first.path, "a/");
  }
  const half = (text.length - 1) / 2;
  const [left, right] = [text.slice(0, half), text.slice(half + 1)];
  if (!Number.isInteger(half) || text[half] !== " ") return undefined;
  const [oldPath, newPath] = [stripPrefix(left, "a/"), stripPrefix(right, "b/")];
  return oldPath === newPath ? oldPath : undefined;
}

/** What git says about one file before (or instead of) its `---`/`+++` lines. */
interface GitHeader {
  path: string | undefined;
  from?: string;
  to?: string;
  copy: boolean;
  created: boolean;
  deleted: boolean;
  newMode?: string;
  binary: boolean;
}

function readGitHeader(lines: readonly string[], start: number): { header: GitHeader; next: number } {
  const header: GitHeader = { path: gitLinePath(lines[start]!), copy: false, created: false, deleted: false, binary: false };
  let index = start + 1;
  for (; index < lines.length; index += 1) {
    const line = lines[index]!.replace(/\r$/, "");
    if (line.startsWith("diff --git ") || line.startsWith("--- ") || line.startsWith("@@")) break;
    const named = /^(rename|copy) (from|to) (.*)$/.exec(line);
    if (named !== null) {
      const path = readGitPath(named[3]!)?.path ?? named[3]!;
      if (named[2] === "from") header.from = path;
      else header.to = path;
      if (named[1] === "copy") header.copy = true;
    } else if (line.startsWith("new file mode ")) header.created = true;
    else if (line.startsWith("deleted file mode ")) header.deleted = true;
    else if (line.startsWith("new mode ")) header.newMode = line.slice("new mode ".length);
    else if (line.startsWith("Binary files ") || line === "GIT binary patch") header.binary = true;
  }
  return { header, next: index };
}

/** A git section with no `---`/`+++` lines: a pure rename or copy, an empty file created or deleted, a mode change. */
function headerOnlyPatch(header: GitHeader, line: number): FilePatch | undefined {
  if (header.from !== undefined && header.to !== undefined) return { oldPath: header.from, newPath: header.to, hunks: [], ...(header.copy ? { copy: true } : {}) };
  if (header.path === undefined) return undefined;
  if (header.created) return { oldPath: null, newPath: header.path, hunks: [] };
  if (header.deleted) return { oldPath: header.path, newPath: null, hunks: [] };
  if (header.newMode !== undefined) return { oldPath: header.path, newPath: header.path, hunks: [], newMode: header.newMode };
  throw invalidPatch(`the \`diff --git\` section on line ${line} has neither hunks nor a rename, creation or deletion.`);
}

function readHunks(lines: readonly string[], start: number, exactEol: boolean): { hunks: Hunk[]; next: number } {
  const hunks: Hunk[] = [];
  let index = start;
  while (index < lines.length && lines[index]!.startsWith("@@")) {
    const header = lines[index]!.replace(/\r$/, "");
    const match = hunkHeader.exec(header);
    if (match === null) throw invalidPatch(`hunk header \`${header}\` on line ${index + 1} is malformed.`);
    let oldRemaining = match[2] === undefined ? 1 : Number(match[2]);
    let newRemaining = match[4] === undefined ? 1 : Number(match[4]);
    const hunk: Hunk = { header, oldStart: Number(match[1]), lines: [], oldMissingNewline: false, newMissingNewline: false };
    index += 1;
    while (oldRemaining > 0 || newRemaining > 0) {
      const raw = lines[index];
      if (raw === undefined) throw invalidPatch(`hunk \`${header}\` ends early; ${oldRemaining} old and ${newRemaining} new lines are missing.`);
      const hasCr = raw.endsWith("\r");
      const body = hasCr ? raw.slice(0, -1) : raw;
      // Some editors strip the single space of an empty context line.
      const kind = body === "" ? " " : body[0];
      if (kind === "\\") {
        markMissingNewline(hunk);
        index += 1;
        continue;
      }
      if (kind !== " " && kind !== "-" && kind !== "+") throw invalidPatch(`line ${index + 1} (\`${body}\`) in hunk \`${header}\` starts with neither space, \`-\` nor \`+\`.`);
      hunk.lines.push({ kind, text: body.slice(1), ...(exactEol ? { eol: hasCr ? "\r\n" : "\n" } : {}) });
      if (kind !== "+") oldRemaining -= 1;
      if (kind !== "-") newRemaining -= 1;
      if (oldRemaining < 0 || newRemaining < 0) throw invalidPatch(`hunk \`${header}\` has more lines than its header counts.`);
      index += 1;
    }
    if (lines[index]?.startsWith("\\")) {
      markMissingNewline(hunk);
      index += 1;
    }
    hunks.push(hunk);
  }
  return { hunks, next: index };
}

/** Parse a unified diff (git, with its extended headers, or plain `diff -u` style) into per-file patches. */
export function parseUnifiedDiff(patch: string): FilePatch[] {
  // A patch whose every line ends in CRLF was converted in transport, and its CRs say nothing about the
  // files. Otherwise a CR before a newline is part of that line (`git diff` of a CRLF file), so the
  // line's own ending is kept: a mixed-ending file must not have its other lines rewritten.
  const transportCrlf = patch.includes("\r\n") && !/(^|[^\r])\n/.test(patch);
  const lines = (transportCrlf ? patch.replace(/\r\n/g, "\n") : patch).split("\n");
  const exactEol = !transportCrlf && /\r\n/.test(patch);
  const files: FilePatch[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!.replace(/\r$/, "");
    let git: GitHeader | undefined;
    if (line.startsWith("diff --git ")) {
      const read = readGitHeader(lines, index);
      git = read.header;
      if (git.binary) throw invalidPatch(`the section for \`${git.to ?? git.path ?? line}\` is a binary patch, which apply_patch cannot apply. Use \`write\` for that file.`);
      if (!lines[read.next]?.startsWith("--- ")) {
        const headerOnly = headerOnlyPatch(git, index + 1);
        if (headerOnly !== undefined) files.push(headerOnly);
        index = read.next;
        continue;
      }
      index = read.next;
    } else if (!line.startsWith("--- ")) {
      index += 1;
      continue;
    }
    const minus = lines[index]!.replace(/\r$/, "");
    const plus = lines[index + 1]?.replace(/\r$/, "");
    if (plus === undefined || !plus.startsWith("+++ ")) throw invalidPatch(`line ${index + 1} (\`${minus}\`) is not followed by a \`+++\` line.`);
    // git's `rename from`/`rename to` lines name the files unambiguously; the `---`/`+++` lines agree with them.
    const file: FilePatch = {
      oldPath: git?.from ?? headerPath(minus, "a/"),
      newPath: git?.to ?? headerPath(plus, "b/"),
      hunks: [],
      ...(git?.copy === true ? { copy: true } : {}),
      ...(git?.newMode === undefined || git.created ? {} : { newMode: git.newMode }),
    };
    if (file.oldPath === null && file.newPath === null) throw invalidPatch(`line ${index + 1} names /dev/null on both sides.`);
    const read = readHunks(lines, index + 2, exactEol);
    file.hunks = read.hunks;
    index = read.next;
    if (file.hunks.length === 0) throw invalidPatch(`the section for \`${file.newPath ?? file.oldPath}\` has no hunks.`);
    files.push(file);
  }
  if (files.length === 0) throw invalidPatch("no `---`/`+++` file header was found.");
  return files;
}

/** A line of a file with its own ending (`""` for a last line without a newline). */
interface FileLine {
  text: string;
  eol: string;
}

function splitLines(content: string): FileLine[] {
  const parts = content.split("\n");
  const lines = parts.slice(0, -1).map((part) => (part.endsWith("\r") ? { text: part.slice(0, -1), eol: "\r\n" } : { text: part, eol: "\n" }));
  const last = parts.at(-1)!;
  if (last !== "") lines.push({ text: last, eol: "" });
  return lines;
}

function findBlock(lines: readonly FileLine[], block: readonly string[], expectedAt: number): number {
  const fits = (at: number) => at >= 0 && at + block.length <= lines.length && block.every((text, offset) => lines[at + offset]!.text === text);
  // Search outward from where the header says, so a patch made against a shifted file still applies at
  // the nearest match; the header may point past the end, so search until both directions leave the file.
  for (let distance = 0; expectedAt - distance >= 0 || expectedAt + distance <= lines.length; distance += 1) {
    if (fits(expectedAt - distance)) return expectedAt - distance;
    if (distance > 0 && fits(expectedAt + distance)) return expectedAt + distance;
  }
  return -1;
}

/**
 * Apply one file's hunks to its content (`null` for a file that does not exist yet). Lines the patch
 * does not touch keep their own endings; added lines take the ending the patch gives them or, when
 * it gives none, the file's prevailing one.
 *
 * @returns the new content, or `null` when the file is deleted.
 * @throws ToolError `conflict` quoting the hunk whose old lines are not in the file.
 */
export function applyFilePatch(content: string | null, file: FilePatch, shownPath: string): string | null {
  const lines = splitLines(content ?? "");
  const crlfCount = lines.filter((line) => line.eol === "\r\n").length;
  const prevailingEol = crlfCount > lines.length - crlfCount ? "\r\n" : "\n";
  let endsWithNewline = lines.length === 0 || lines.at(-1)!.eol !== "";
  let delta = 0;
  for (const hunk of file.hunks) {
    const oldBlock = hunk.lines.filter((line) => line.kind !== "+").map((line) => line.text);
    // A hunk without old lines inserts after line `oldStart`; otherwise its old lines start at line `oldStart`.
    const expectedAt = Math.max(0, (oldBlock.length === 0 ? hunk.oldStart : hunk.oldStart - 1) + delta);
    const at = oldBlock.length === 0 ? Math.min(expectedAt, lines.length) : findBlock(lines, oldBlock, expectedAt);
    if (at === -1) {
      throw new ToolError({
        code: "conflict",
        message: `Nothing was written: hunk \`${hunk.header}\` does not apply to \`${shownPath}\`; its old lines (starting \`${oldBlock[0] ?? ""}\`) are not in the file. Read the file and make the patch against its current content.`,
      });
    }
    const replacement: FileLine[] = [];
    let cursor = at;
    for (const line of hunk.lines) {
      if (line.kind === "+") replacement.push({ text: line.text, eol: line.eol ?? prevailingEol });
      else if (line.kind === " ") replacement.push(lines[cursor++]!);
      else cursor += 1;
    }
    lines.splice(at, oldBlock.length, ...replacement);
    delta += replacement.length - oldBlock.length;
    if (hunk.newMissingNewline) endsWithNewline = false;
    else if (hunk.oldMissingNewline) endsWithNewline = true;
  }
  if (file.newPath === null) {
    if (lines.length > 0) {
      throw new ToolError({ code: "conflict", message: `Nothing was written: the patch deletes \`${shownPath}\`, but ${lines.length} lines of it are not in the patch. Make the patch against the file's current content.` });
    }
    return null;
  }
  // A line that ended the file may now be followed by others; only the last line may lack a newline.
  const joined = lines.map((line, index) => {
    const isLast = index === lines.length - 1;
    if (isLast && !endsWithNewline) return line.text;
    return line.text + (line.eol === "" ? prevailingEol : line.eol);
  });
  return joined.join("");
}
