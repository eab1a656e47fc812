import { execFileSync, spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ToolError } from "@runbound/tool-kit";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { applyFilePatch } from "./apply-file-patch.js";
import { parseUnifiedDiff } from "./unified-diff.js";

/*
 * Differential test: apply_patch's diff reader and applier against `git apply`, the reference.
 * Each case builds a tree in a temporary git repository, edits it (renames, copies, mode changes,
 * CRLF and mixed endings, no newline at end, quoted, spaced and non-ASCII names, empty and binary
 * files, deletions, creations), takes git's own diff of the edit, mangles some of those diffs, and
 * requires both appliers to refuse or to leave identical trees. Compared are the files' contents:
 * modes are ignored, because apply_patch reports a mode change instead of applying it, and so are
 * empty directories, which git removes after deleting the last file in them.
 *
 * Where the two may deliberately differ:
 * - Leniency: apply_patch searches for a hunk whose header is off (git does too, but git also
 *   requires a hunk without leading context to match at the start of the file and one without
 *   trailing context at its end). A case where git refuses and we apply counts as agreement only
 *   if our tree is the one the unmangled patch gives.
 * - Strictness: apply_patch refuses a section whose `diff --git` line names other files than its
 *   `---`/`+++` lines (git follows `---`/`+++`), a hunk whose old start lies past the end of the
 *   file (git starts its search at the end), and a header number beyond any file (git places a hunk
 *   by its new start and ignores an old start it cannot read). A case where we refuse and git
 *   applies counts as agreement only for these three manglings.
 */

const gitEnvironment = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
const gitSettings = ["-c", "core.autocrlf=false", "-c", "core.quotePath=true", "-c", "color.ui=never"];

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", [...gitSettings, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...gitEnvironment, GIT_CEILING_DIRECTORIES: dirname(cwd) },
  });
}

type Tree = Map<string, string>;

const names = ["a.txt", "sub/b.txt", "with space.txt", "été.txt", 'quo"te.txt', "deep/er/c.md", "d.txt"];
const freshNames = ["moved.txt", "new dir/moved two.txt", "ç/new.txt", "n.txt"];
const lineTexts = ["alpha", "beta", "gamma", "delta", "", "  indented", "x = 1;", "}", "tab\there"];

interface Content {
  lines: string[];
  eol: "\n" | "\r\n" | "mixed";
  finalNewline: boolean;
  binary: boolean;
}

function render({ lines, eol, finalNewline, binary }: Content): string {
  if (binary) return `bin\u0000ary ${lines.join(" ")}\n`;
  const ends: string[] = lines.map((_, index) => (eol === "mixed" ? (index % 2 === 0 ? "\r\n" : "\n") : eol));
  if (!finalNewline && ends.length > 0) ends[ends.length - 1] = "";
  return lines.map((line, index) => line + ends[index]).join("");
}

const contentArbitrary: fc.Arbitrary<Content> = fc.record({
  lines: fc.array(fc.constantFrom(...lineTexts), { maxLength: 14 }),
  eol: fc.constantFrom("\n" as const, "\r\n" as const, "mixed" as const),
  finalNewline: fc.boolean(),
  binary: fc.integer({ min: 0, max: 39 }).map((roll) => roll === 0),
});

/** What happens to one file of the starting tree. */
type Edit = "keep" | "modify" | "delete" | "rename" | "rename and modify" | "copy and modify" | "mode";

interface LineEdit {
  at: number;
  kind: "replace" | "insert" | "delete";
  text: string;
}

const lineEditsArbitrary = fc.array(
  fc.record({
    at: fc.nat({ max: 20 }),
    kind: fc.constantFrom("replace" as const, "insert" as const, "delete" as const),
    text: fc.constantFrom(...lineTexts, "new line", "changed"),
  }),
  { minLength: 1, maxLength: 4 },
);

/** How a case spoils git's diff before both appliers get it. */
type Mangling =
  | "none"
  | "offset"
  | "huge offset"
  | "past the end"
  | "dropped context"
  | "inconsistent name"
  | "truncated"
  | "swapped signs"
  | "dropped removal";

const caseArbitrary = fc.record({
  files: fc.uniqueArray(
    fc.record({
      name: fc.constantFrom(...names),
      content: contentArbitrary,
      edit: fc.constantFrom<Edit>(
        "keep",
        "modify",
        "modify",
        "delete",
        "rename",
        "rename and modify",
        "copy and modify",
        "mode",
      ),
      lineEdits: lineEditsArbitrary,
      endingFlip: fc.boolean(),
    }),
    { selector: (file) => file.name, minLength: 1, maxLength: 4 },
  ),
  created: fc.uniqueArray(fc.record({ name: fc.constantFrom(...freshNames), content: contentArbitrary }), {
    selector: (file) => file.name,
    maxLength: 2,
  }),
  mangling: fc.constantFrom<Mangling>(
    "none",
    "none",
    "none",
    "offset",
    "huge offset",
    "past the end",
    "dropped context",
    "inconsistent name",
    "truncated",
    "swapped signs",
    "dropped removal",
  ),
  pick: fc.nat({ max: 1000 }),
  shift: fc.integer({ min: -4, max: 4 }).filter((shift) => shift !== 0),
});

type Case = typeof caseArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

function editContent(content: Content, lineEdits: readonly LineEdit[], endingFlip: boolean): Content {
  const lines = [...content.lines];
  for (const { at, kind, text } of lineEdits) {
    const index = lines.length === 0 ? 0 : at % (lines.length + (kind === "insert" ? 1 : 0));
    if (kind === "insert") lines.splice(index, 0, text);
    else if (lines.length > 0) lines.splice(index, 1, ...(kind === "replace" ? [text] : []));
  }
  return { ...content, lines, finalNewline: endingFlip ? !content.finalNewline : content.finalNewline };
}

async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [name, content] of tree) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
}

async function readTree(root: string): Promise<Tree> {
  const tree: Tree = new Map();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(root, path);
    if (name.startsWith(".git/") || name === "patch.diff") continue;
    tree.set(name, await readFile(path, "utf8"));
  }
  return new Map([...tree].sort(([left], [right]) => (left < right ? -1 : 1)));
}

/** The starting tree and git's diff of the edited one, from a real repository. */
async function gitDiffOf(scratch: string, testCase: Case): Promise<{ before: Tree; patch: string }> {
  const repository = join(scratch, "repository");
  await mkdir(repository);
  const before: Tree = new Map(testCase.files.map((file) => [file.name, render(file.content)]));
  await writeTree(repository, before);
  git(repository, "init", "-q", ".");
  git(repository, "add", "-A");
  const beforeTree = git(repository, "write-tree").trim();
  const fresh = freshNames.filter((name) => !testCase.created.some((file) => file.name === name));
  for (const [index, file] of testCase.files.entries()) {
    const path = join(repository, file.name);
    const edited = render(editContent(file.content, file.lineEdits, file.endingFlip));
    const target = fresh[index % fresh.length]!;
    if (file.edit === "modify") await writeFile(path, edited);
    else if (file.edit === "delete") await rm(path);
    else if (file.edit === "mode") await chmod(path, 0o755);
    else if (
      file.edit !== "keep" &&
      !before.has(target) &&
      !testCase.files.some(
        (other, otherIndex) =>
          otherIndex < index && fresh[otherIndex % fresh.length] === target && other.edit !== "keep",
      )
    ) {
      await mkdir(dirname(join(repository, target)), { recursive: true });
      await writeFile(join(repository, target), file.edit === "rename" ? render(file.content) : edited);
      if (file.edit !== "copy and modify") await rm(path);
    }
  }
  for (const file of testCase.created) {
    if (before.has(file.name)) continue;
    await mkdir(dirname(join(repository, file.name)), { recursive: true });
    await writeFile(join(repository, file.name), render(file.content));
  }
  git(repository, "add", "-A");
  return {
    before,
    patch: git(repository, "diff", "--cached", "--no-ext-diff", "-M", "-C", "--find-copies-harder", beforeTree),
  };
}

/** The `@@` lines of a patch, by index into its lines. */
function hunkHeaders(lines: readonly string[]): number[] {
  return lines.flatMap((line, index) => (line.startsWith("@@ -") ? [index] : []));
}

function rewriteHeader(line: string, change: (numbers: number[]) => Array<number | string>): string {
  const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/.exec(line)!;
  const [oldStart, oldCount, newStart, newCount] = change([
    Number(match[1]),
    Number(match[2] ?? 1),
    Number(match[3]),
    Number(match[4] ?? 1),
  ]);
  return `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@${match[5]}`;
}

/** The lines of the hunk whose header is at `header`. */
function hunkBody(lines: readonly string[], header: number): number[] {
  const body: number[] = [];
  for (let index = header + 1; index < lines.length && /^[ +\-\\]/.test(lines[index]!); index += 1) body.push(index);
  return body;
}

/** The patch spoiled as `mangling` says, or `undefined` when it has nothing to spoil. */
function mangle(patch: string, { mangling, pick, shift }: Case): string | undefined {
  const lines = patch.split("\n");
  const headers = hunkHeaders(lines);
  if (mangling === "none") return patch;
  if (headers.length === 0) return undefined;
  const header = headers[pick % headers.length]!;
  const body = hunkBody(lines, header);
  const ofKind = (kind: string) => body.filter((index) => lines[index]!.startsWith(kind));
  if (mangling === "offset" || mangling === "huge offset" || mangling === "past the end") {
    const [oldStart] = /\d+/.exec(lines[header]!)!.map(Number);
    if (oldStart === 0) return undefined;
    lines[header] = rewriteHeader(lines[header]!, ([start, oldCount, newStart, newCount]) => {
      if (mangling === "huge offset") return ["99999999999999999999", oldCount!, newStart!, newCount!];
      const moved = mangling === "offset" ? Math.max(1, start! + shift) : start! + 1000;
      return [moved, oldCount!, newStart! + moved - start!, newCount!];
    });
  } else if (mangling === "dropped context") {
    const context = ofKind(" ");
    if (context.length === 0) return undefined;
    lines.splice(context[pick % context.length]!, 1);
    lines[header] = rewriteHeader(lines[header]!, ([oldStart, oldCount, newStart, newCount]) => [
      oldStart!,
      oldCount! - 1,
      newStart!,
      newCount! - 1,
    ]);
  } else if (mangling === "inconsistent name") {
    const plus = lines.slice(0, header).findLastIndex((line) => line.startsWith("+++ "));
    if (plus === -1 || lines[plus] === "+++ /dev/null") return undefined;
    lines[plus] = "+++ b/zz-other.txt";
  } else if (mangling === "truncated") {
    if (body.length < 2) return undefined;
    lines.length = body[pick % (body.length - 1)]! + 1;
    lines.push("");
  } else if (mangling === "swapped signs") {
    for (const index of body) {
      const line = lines[index]!;
      if (line.startsWith("+") || line.startsWith("-")) lines[index] = (line[0] === "+" ? "-" : "+") + line.slice(1);
    }
    lines[header] = rewriteHeader(lines[header]!, ([oldStart, oldCount, newStart, newCount]) => [
      newStart!,
      newCount!,
      oldStart!,
      oldCount!,
    ]);
  } else {
    const removals = ofKind("-");
    if (removals.length === 0) return undefined;
    lines.splice(removals[pick % removals.length]!, 1);
  }
  return lines.join("\n");
}

/** `git apply` in a copy of the starting tree: the tree it leaves, or `undefined` when it refuses. */
async function gitApply(scratch: string, name: string, before: Tree, patch: string): Promise<Tree | undefined> {
  const copy = join(scratch, name);
  await mkdir(copy);
  await writeTree(copy, before);
  await writeFile(join(copy, "patch.diff"), patch);
  const result = spawnSync("git", [...gitSettings, "apply", "--whitespace=nowarn", "patch.diff"], {
    cwd: copy,
    env: { ...gitEnvironment, GIT_CEILING_DIRECTORIES: scratch },
  });
  return result.status === 0 ? readTree(copy) : undefined;
}

/**
 * apply_patch's reader and applier, driven the way apply-patch-tool.ts drives them: every old file is
 * read before anything changes, a created or moved-to file must not exist, a file is changed by one
 * section only, and a rename removes its source. `undefined` when it refuses.
 */
function ourApply(before: Tree, patch: string): Tree | undefined {
  try {
    const after = new Map(before);
    const claimed = new Set<string>();
    const claim = (path: string) => {
      if (claimed.has(path)) throw new ToolError({ code: "invalid_input", message: `\`${path}\` is changed twice.` });
      claimed.add(path);
    };
    for (const file of parseUnifiedDiff(patch)) {
      const current = file.oldPath === null ? null : before.get(file.oldPath);
      if (current === undefined) return undefined;
      const moved = file.oldPath !== null && file.newPath !== null && file.oldPath !== file.newPath;
      if (file.newPath !== null && (file.oldPath === null || moved) && before.has(file.newPath)) return undefined;
      const content = applyFilePatch(current, file, file.newPath ?? file.oldPath!);
      if (file.newPath !== null) {
        claim(file.newPath);
        after.set(file.newPath, content!);
      }
      if (file.oldPath !== null && (file.newPath === null || (moved && file.copy !== true))) {
        claim(file.oldPath);
        after.delete(file.oldPath);
      }
    }
    return new Map([...after].sort(([left], [right]) => (left < right ? -1 : 1)));
  } catch (error) {
    if (ToolError.isInstance(error)) return undefined;
    throw error;
  }
}

/** What the cases came to; printed only when RUNBOUND_DIFFERENTIAL_STATS is set. */
const outcomes = new Map<string, number>();
const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

/** What git's diffs contained, to show the cases reach what they are meant to. */
const features: ReadonlyArray<[string, RegExp]> = [
  ["a rename", /^rename from /m],
  ["a copy", /^copy from /m],
  ["a mode change", /^new mode /m],
  ["a creation", /^new file mode /m],
  ["a deletion", /^deleted file mode /m],
  ["CRLF lines", /\r\n/],
  ["no newline at end", /^\\ No newline at end of file/m],
  ["a quoted name", /^diff --git "/m],
  ["a name with a space", /^\+\+\+ b\/.* .*\t$/m],
  ["a binary file", /^Binary files /m],
];

const lenientManglings: ReadonlySet<Mangling> = new Set(["offset", "dropped context"]);
const strictManglings: ReadonlySet<Mangling> = new Set(["inconsistent name", "past the end", "huge offset"]);

describe("apply_patch against git apply", () => {
  afterAll(() => {
    if (process.env["RUNBOUND_DIFFERENTIAL_STATS"] !== undefined)
      console.log(JSON.stringify(Object.fromEntries(outcomes)));
  });

  it("refuses what git refuses and leaves the tree git leaves, for git's diffs of generated edits and their manglings", async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (testCase) => {
        const scratch = await mkdtemp(join(tmpdir(), "runbound-differential-"));
        try {
          const { before, patch: original } = await gitDiffOf(scratch, testCase);
          for (const [feature, marker] of features) if (marker.test(original)) count(`git's diff has ${feature}`);
          // A diff with nothing to spoil in the way asked is checked as it is.
          const mangled = mangle(original, testCase);
          const mangling = mangled === undefined ? "none" : testCase.mangling;
          const patch = mangled ?? original;
          const ours = ourApply(before, patch);
          const theirs = await gitApply(scratch, "git", before, patch);
          if (ours === undefined && theirs === undefined) return void count(`${mangling}: both refuse`);
          if (ours !== undefined && theirs !== undefined) {
            expect({ patch, tree: ours }).toEqual({ patch, tree: theirs });
            return void count(`${mangling}: identical trees`);
          }
          if (ours === undefined) {
            expect({ patch, ourRefusalAllowed: strictManglings.has(mangling) }).toEqual({
              patch,
              ourRefusalAllowed: true,
            });
            return void count(`${mangling}: we refuse, git applies`);
          }
          // We applied what git refused: only a shifted or shortened hunk, and only where the unmangled patch lands.
          expect({ patch, lenient: lenientManglings.has(mangling) }).toEqual({ patch, lenient: true });
          expect({ patch, tree: ours }).toEqual({
            patch,
            tree: await gitApply(scratch, "reference", before, original),
          });
          count(`${mangling}: git refuses, we apply where the unmangled patch does`);
        } finally {
          await rm(scratch, { recursive: true, force: true });
        }
      }),
      { seed: 20261201, numRuns: 80, endOnFailure: true },
    );
  });
});
