import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ToolError } from "@runbound/tool-kit";
import { applyFilePatch } from "./apply-file-patch.js";
import { maxPatchLength, parseUnifiedDiff, parseUnifiedDiffYielding } from "./unified-diff.js";

/**
 * Diffs recorded from the real `git diff --no-index --no-color before after` (git 2.39), so the parser
 * meets what agents paste; recorded rather than made here because mutation testing reruns these tests
 * for every mutant, and the differential test against `git apply` runs git itself.
 */
const cases = (
  JSON.parse(readFileSync(new URL("__fixtures__/git-diff-cases.json", import.meta.url), "utf8")) as Array<{
    name: string;
    before: string;
    after: string;
    diff: string;
  }>
).map(({ name, before, after, diff }) => [name, before, after, diff] as const);

describe("unified diff", () => {
  it.each(cases)("applies git's diff for %s", (_name, before, after, diff) => {
    const [file] = parseUnifiedDiff(diff);
    expect(applyFilePatch(before, file!, "before")).toBe(after);
  });

  it("applies a hunk whose position shifted, at the nearest match", () => {
    const [file] = parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n");
    expect(applyFilePatch("top\nmore\nx\ny\n", file!, "f")).toBe("top\nmore\nx\nz\n");
  });

  it("keeps the endings of the lines a patch does not touch in a mixed-ending file", () => {
    const [file] = parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-l1\n+L1\n");
    expect(applyFilePatch("l1\r\nl2\nl3\r\n", file!, "f")).toBe("L1\r\nl2\nl3\r\n");
  });

  it("refuses a hunk whose header counts more lines than it has, or fewer", () => {
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n x\n")).toThrow(
      "hunk `@@ -1,3 +1,3 @@` ends early; 2 old and 2 new lines are missing.",
    );
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,0 +1,2 @@\n x\n+y\n")).toThrow(
      "hunk `@@ -1,0 +1,2 @@` has more lines than its header counts.",
    );
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,2 +1,0 @@\n x\n-y\n")).toThrow(
      "hunk `@@ -1,2 +1,0 @@` has more lines than its header counts.",
    );
  });

  it("refuses a hunk header whose number no file can reach, before searching for it", () => {
    for (const header of [
      "@@ -99999999999999999999 +1 @@",
      "@@ -1,99999999999999999999 +1 @@",
      "@@ -1 +99999999999999999999 @@",
      "@@ -1 +1,99999999999999999999 @@",
    ]) {
      const number = /9{20}/.exec(header)![0];
      expect(() => parseUnifiedDiff(`--- a/f\n+++ b/f\n${header}\n-x\n+y\n`)).toThrow(
        `hunk header \`${header}\` on line 3 has the number \`${number}\`, larger than any file's line count.`,
      );
    }
  });

  it("refuses a patch longer than it reads, naming its length", () => {
    // Padded with one long trailing line outside any section, which the reader skips.
    const patch = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n".padEnd(maxPatchLength + 1, "#");
    expect(() => parseUnifiedDiff(patch)).toThrow(
      `The patch is \`${maxPatchLength + 1}\` characters long, more than the ${maxPatchLength} apply_patch reads.`,
    );
    expect(parseUnifiedDiff(patch.slice(0, maxPatchLength))).toHaveLength(1);
  });

  it("reads the same when it yields to the event loop, and stops when aborted", async () => {
    const patch = `--- a/f\n+++ b/f\n${Array.from({ length: 1500 }, (_, index) => `@@ -${index + 1} +${index + 1} @@\n-${index}\n+${index}!`).join("\n")}\n`;
    await expect(parseUnifiedDiffYielding(patch)).resolves.toEqual(parseUnifiedDiff(patch));
    await expect(parseUnifiedDiffYielding("nothing")).rejects.toThrow("no `---`/`+++` file header was found.");
    const reason = new ToolError({ code: "cancelled", message: "The call was cancelled." });
    await expect(parseUnifiedDiffYielding(patch, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("answers a header counting a quadrillion lines at once, with what is missing", () => {
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,1000000000000000 +1,1000000000000000 @@\n x\n")).toThrow(
      "999999999999999 old and 999999999999999 new lines are missing",
    );
  });

  it("refuses a malformed hunk header and a line that is not part of a hunk", () => {
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -x +1 @@\n-a\n")).toThrow(
      "hunk header `@@ -x +1 @@` on line 3 is malformed.",
    );
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1 +1 @@\n*a\n")).toThrow(
      "line 4 (`*a`) in hunk `@@ -1 +1 @@` starts with neither space",
    );
    expect(() => parseUnifiedDiff("--- a/f\nnot plus\n")).toThrow(
      "line 1 (`--- a/f`) is not followed by a `+++` line.",
    );
    expect(() => parseUnifiedDiff("--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n")).toThrow(
      "line 1 names /dev/null on both sides.",
    );
  });

  it("refuses a file section without hunks", () => {
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n")).toThrow("the section for `f` has no hunks.");
    expect(() => parseUnifiedDiff("diff --git a/f b/f\nindex 1..2 100644\n")).toThrow(
      "the `diff --git` section on line 1 has neither hunks nor a rename, creation or deletion.",
    );
  });

  it("reads `diff -u` headers with timestamps, and quotes a CR-ended header line without its CR", () => {
    const [file] = parseUnifiedDiff(
      "---  f.txt\t2026-12-01 09:00:00.000000000 +0000\n+++ f.txt\t2026-12-01 09:01:00.000000000 +0000\n@@ -1 +1 @@\n-a\n+b\n",
    );
    expect([file!.oldPath, file!.newPath]).toEqual(["f.txt", "f.txt"]);
    expect(() => parseUnifiedDiff("--- a/f\r\nnot plus\n")).toThrow(
      "line 1 (`--- a/f`) is not followed by a `+++` line.",
    );
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1 +1 @\r\n-a\n")).toThrow(
      "hunk header `@@ -1 +1 @` on line 3 is malformed.",
    );
  });

  it("reads an empty context line whose space an editor stripped", () => {
    const [file] = parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n");
    expect(applyFilePatch("a\n\nb\n", file!, "f")).toBe("a\n\nc\n");
  });
});

describe("the ends of lines", () => {
  it("reads a patch whose every line ends in CRLF as converted in transport, and keeps the file's own endings", () => {
    const [file] = parseUnifiedDiff("--- a/f\r\n+++ b/f\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+B\r\n");
    expect(file!.hunks[0]!.lines.map((line) => line.eol)).toEqual([undefined, undefined, undefined]);
    expect(applyFilePatch("a\nb\n", file!, "f")).toBe("a\nB\n");
  });

  it("keeps the CR a line of a mixed patch carries, and gives an added line without one a newline", () => {
    const [file] = parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\r\n-b\r\n+B\r\n+C\n");
    expect(file!.hunks[0]!.lines.map((line) => line.eol)).toEqual(["\r\n", "\r\n", "\r\n", "\n"]);
    expect(applyFilePatch("a\r\nb\r\n", file!, "f")).toBe("a\r\nB\r\nC\n");
  });

  it("gives added lines the ending most of the file's lines have", () => {
    const [file] = parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+x\n");
    expect(applyFilePatch("a\r\nb\r\nc\n", file!, "f")).toBe("a\r\nx\r\nb\r\nc\n");
    expect(applyFilePatch("a\r\nb\nc\n", file!, "f")).toBe("a\r\nx\nb\nc\n");
    expect(applyFilePatch("a\r\nb\n", file!, "f")).toBe("a\r\nx\nb\n");
  });

  it("ends a former last line without newline when lines are added after it", () => {
    const [file] = parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+b\n");
    expect(applyFilePatch("a", file!, "f")).toBe("a\nb\n");
  });
});
