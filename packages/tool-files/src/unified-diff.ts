import { ToolError } from "@runbound/tool-kit";
import type { FilePatch, Hunk } from "./file-patch.js";
import {
  checkGitNames,
  gitLinePath,
  invalidPatch,
  readGitHeader,
  stripPrefix,
  type GitHeader,
} from "./git-diff-header.js";
import { readGitPath } from "./git-quoted-path.js";
import { runSteps, runStepsYielding, type Steps } from "./run-steps.js";

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The longest patch read: far beyond any change made by hand or by a model, and small enough that
 * reading and applying it stays well under a second of CPU (the tool runs on the host's event loop).
 */
export const maxPatchLength = 4 * 1024 * 1024;

/**
 * `\ No newline at end of file` applies to the line before it: the old side, the new side, or both
 * (context). Only the new side matters: the old side's last line is matched by its text alone.
 */
function markMissingNewline(hunk: Hunk): void {
  if (hunk.lines.at(-1)?.kind !== "-") hunk.newMissingNewline = true;
}

/** The path of a `---`/`+++` line: git quotes unusual names and ends names with spaces by a tab. */
function headerPath(line: string, prefix: "a/" | "b/"): string | null {
  const text = line.slice(4).trimEnd();
  const raw = text.startsWith('"') ? (readGitPath(text)?.path ?? text) : text.split("\t")[0]!.trim();
  return raw === "/dev/null" ? null : stripPrefix(raw, prefix);
}

/** A git section with no `---`/`+++` lines: a pure rename or copy, an empty file created or deleted, a mode change. */
function headerOnlyPatch(header: GitHeader): FilePatch {
  if (header.from !== undefined && header.to !== undefined)
    return { oldPath: header.from, newPath: header.to, hunks: [], ...(header.copy ? { copy: true } : {}) };
  const path = gitLinePath(header);
  if (path === undefined)
    throw invalidPatch(
      `the \`diff --git\` section on line ${header.lineNumber} names two files but says neither how they relate (\`rename from\`/\`rename to\`) nor how they change (\`---\`/\`+++\` and hunks).`,
    );
  if (header.created) return { oldPath: null, newPath: path, hunks: [] };
  if (header.deleted) return { oldPath: path, newPath: null, hunks: [] };
  if (header.newMode !== undefined) return { oldPath: path, newPath: path, hunks: [], newMode: header.newMode };
  throw invalidPatch(
    `the \`diff --git\` section on line ${header.lineNumber} has neither hunks nor a rename, creation or deletion.`,
  );
}

/** A line number or count of a hunk header; one no file can have is refused here rather than searched for. */
function headerNumber(digits: string | undefined, header: string, line: number): number {
  if (digits === undefined) return 1;
  const value = Number(digits);
  if (!Number.isSafeInteger(value))
    throw invalidPatch(
      `hunk header \`${header}\` on line ${line} has the number \`${digits}\`, larger than any file's line count.`,
    );
  return value;
}

/** How many lines, or hunks, of the patch are read between two chances to yield. */
const stepSize = 4096;

function* readHunks(
  lines: readonly string[],
  start: number,
  exactEol: boolean,
): Steps<{ hunks: Hunk[]; next: number }> {
  const hunks: Hunk[] = [];
  let index = start;
  while (index < lines.length && lines[index]!.startsWith("@@")) {
    // Many short hunks: their body lines alone may never fall on a step boundary.
    if (hunks.length % stepSize === stepSize - 1) yield;
    const header = lines[index]!.replace(/\r$/, "");
    const match = hunkHeader.exec(header);
    if (match === null) throw invalidPatch(`hunk header \`${header}\` on line ${index + 1} is malformed.`);
    const oldStart = headerNumber(match[1], header, index + 1);
    headerNumber(match[3], header, index + 1);
    let oldRemaining = headerNumber(match[2], header, index + 1);
    let newRemaining = headerNumber(match[4], header, index + 1);
    const hunk: Hunk = { header, oldStart, lines: [], newMissingNewline: false };
    index += 1;
    while (oldRemaining > 0 || newRemaining > 0) {
      if (index % stepSize === 0) yield;
      const raw = lines[index];
      if (raw === undefined)
        throw invalidPatch(
          `hunk \`${header}\` ends early; ${oldRemaining} old and ${newRemaining} new lines are missing.`,
        );
      const hasCr = raw.endsWith("\r");
      const body = hasCr ? raw.slice(0, -1) : raw;
      // Some editors strip the single space of an empty context line.
      const kind = body === "" ? " " : body[0];
      if (kind === "\\") {
        markMissingNewline(hunk);
        index += 1;
        continue;
      }
      if (kind !== " " && kind !== "-" && kind !== "+")
        throw invalidPatch(
          `line ${index + 1} (\`${body}\`) in hunk \`${header}\` starts with neither space, \`-\` nor \`+\`.`,
        );
      hunk.lines.push({ kind, text: body.slice(1), ...(exactEol ? { eol: hasCr ? "\r\n" : "\n" } : {}) });
      if (kind !== "+") oldRemaining -= 1;
      if (kind !== "-") newRemaining -= 1;
      if (oldRemaining < 0 || newRemaining < 0)
        throw invalidPatch(`hunk \`${header}\` has more lines than its header counts.`);
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

function* parseSteps(patch: string): Steps<FilePatch[]> {
  if (patch.length > maxPatchLength) {
    throw new ToolError({
      code: "invalid_input",
      message: `The patch is \`${patch.length}\` characters long, more than the ${maxPatchLength} apply_patch reads. Split it into several patches of fewer files each.`,
    });
  }
  // A patch whose every line ends in CRLF was converted in transport, and its CRs say nothing about the
  // files. Otherwise a CR before a newline is part of that line (`git diff` of a CRLF file), so the
  // line's own ending is kept: a mixed-ending file must not have its other lines rewritten.
  const transportCrlf = !/(^|[^\r])\n/.test(patch);
  const lines = (transportCrlf ? patch.replace(/\r\n/g, "\n") : patch).split("\n");
  // The newline that ends the patch ends its last line; it does not start an empty one.
  if (lines.at(-1) === "") lines.pop();
  const exactEol = !transportCrlf && /\r\n/.test(patch);
  const files: FilePatch[] = [];
  let index = 0;
  while (index < lines.length) {
    if (index % stepSize === 0) yield;
    const line = lines[index]!;
    let git: GitHeader | undefined;
    if (line.startsWith("diff --git ")) {
      const read = readGitHeader(lines, index);
      git = read.header;
      if (git.binary)
        throw invalidPatch(
          `the section for \`${git.to ?? gitLinePath(git) ?? git.line}\` is a binary patch, which apply_patch cannot apply. Use \`write\` for that file.`,
        );
      if (!lines[read.next]?.startsWith("--- ")) {
        files.push(headerOnlyPatch(git));
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
    if (plus === undefined || !plus.startsWith("+++ "))
      throw invalidPatch(`line ${index + 1} (\`${minus}\`) is not followed by a \`+++\` line.`);
    const oldPath = headerPath(minus, "a/");
    const newPath = headerPath(plus, "b/");
    if (oldPath === null && newPath === null) throw invalidPatch(`line ${index + 1} names /dev/null on both sides.`);
    if (git !== undefined) checkGitNames(git, oldPath, newPath);
    const file: FilePatch = {
      oldPath,
      newPath,
      hunks: [],
      ...(git?.copy === true ? { copy: true } : {}),
      ...(git?.newMode === undefined ? {} : { newMode: git.newMode }),
    };
    const read = yield* readHunks(lines, index + 2, exactEol);
    file.hunks = read.hunks;
    index = read.next;
    if (file.hunks.length === 0)
      throw invalidPatch(`the section for \`${file.newPath ?? file.oldPath}\` has no hunks.`);
    files.push(file);
  }
  if (files.length === 0) throw invalidPatch("no `---`/`+++` file header was found.");
  return files;
}

/** Parse a unified diff (git, with its extended headers, or plain `diff -u` style) into per-file patches. */
export function parseUnifiedDiff(patch: string): FilePatch[] {
  return runSteps(parseSteps(patch));
}

/**
 * {@link parseUnifiedDiff}, giving the event loop its turn about every 10 ms, so a call's budget and
 * cancellation stop reading a long patch.
 *
 * @throws the signal's reason once `signal` aborts.
 */
export function parseUnifiedDiffYielding(patch: string, signal?: AbortSignal): Promise<FilePatch[]> {
  return runStepsYielding(parseSteps(patch), signal);
}
