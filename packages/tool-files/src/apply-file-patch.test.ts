import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { applyFilePatch, applyFilePatchYielding } from "./apply-file-patch.js";
import type { FilePatch } from "./file-patch.js";
import { parseUnifiedDiff } from "./unified-diff.js";

function onePatch(patch: string): FilePatch {
  const files = parseUnifiedDiff(patch);
  expect(files).toHaveLength(1);
  return files[0]!;
}

/** The error `run` throws, which must be a ToolError. */
function toolErrorOf(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError, but nothing was thrown");
}

const numbered = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join("");

describe("applyFilePatch: where a hunk lands", () => {
  it("refuses at once a hunk whose old start lies past the end of the file, naming the start and the line count", () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -50000000,2 +50000000,2 @@\n x\n-y\n+z\n");
    const error = toolErrorOf(() => applyFilePatch("x\ny\nw\n", file, "f"));
    expect(error.code).toBe("conflict");
    expect(error.message).toBe(
      "Nothing was written: hunk `@@ -50000000,2 +50000000,2 @@` does not apply to `f`; it starts at line 50000000, but the file has only 3 lines. Read the file and make the patch against its current content.",
    );
  });

  it("refuses an old start one past the last line, and an insertion after a line the file does not have", () => {
    expect(
      toolErrorOf(() => applyFilePatch("x\ny\n", onePatch("--- a/f\n+++ b/f\n@@ -3 +3 @@\n-y\n+z\n"), "f")).message,
    ).toContain("it starts at line 3, but the file has only 2 lines.");
    expect(
      toolErrorOf(() => applyFilePatch("x\ny\n", onePatch("--- a/f\n+++ b/f\n@@ -3,0 +4 @@\n+z\n"), "f")).message,
    ).toContain("it starts at line 3, but the file has only 2 lines.");
  });

  it("applies at the last line and inserts after the last line", () => {
    expect(applyFilePatch("x\ny\n", onePatch("--- a/f\n+++ b/f\n@@ -2 +2 @@\n-y\n+z\n"), "f")).toBe("x\nz\n");
    expect(applyFilePatch("x\ny\n", onePatch("--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+z\n"), "f")).toBe("x\ny\nz\n");
    expect(applyFilePatch("x\ny\n", onePatch("--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+z\n"), "f")).toBe("z\nx\ny\n");
  });

  it("refuses a hunk whose first old line matches but a later one does not", () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
    const error = toolErrorOf(() => applyFilePatch("a\nstale\n", file, "f"));
    expect(error.code).toBe("conflict");
    expect(error.message).toBe(
      "Nothing was written: hunk `@@ -1,2 +1,2 @@` does not apply to `f`; its old lines (starting `a`) are not in the file. Read the file and make the patch against its current content.",
    );
  });

  it("lands on the copy of a repeated block the header names, not on another copy", () => {
    const block = "open\nbody\nclose\n";
    const content = block + block + block;
    const file = onePatch("--- a/f\n+++ b/f\n@@ -4,3 +4,3 @@\n open\n-body\n+BODY\n close\n");
    expect(applyFilePatch(content, file, "f")).toBe(block + "open\nBODY\nclose\n" + block);
  });

  it("searches one line after the header's place before one line before it, as git does", () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -3 +3 @@\n-x\n+X\n");
    expect(applyFilePatch("a\nx\nb\nx\nc\n", file, "f")).toBe("a\nx\nb\nX\nc\n");
  });

  it("finds a shifted hunk at the nearest copy on either side", () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -5 +5 @@\n-x\n+X\n");
    expect(applyFilePatch("x\na\nb\nc\nd\ne\ng\nh\nx\n", file, "f")).toBe("x\na\nb\nc\nd\ne\ng\nh\nX\n");
    expect(applyFilePatch("a\nx\nb\nc\nd\ne\ng\nh\ni\nx\n", file, "f")).toBe("a\nX\nb\nc\nd\ne\ng\nh\ni\nx\n");
  });

  it("finds a hunk far before the header's place when nothing lies after it", () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -6 +6 @@\n-x\n+X\n");
    expect(applyFilePatch("x\na\nb\nc\nd\ne\n", file, "f")).toBe("X\na\nb\nc\nd\ne\n");
    const early = onePatch("--- a/f\n+++ b/f\n@@ -0,1 +0,1 @@\n-x\n+X\n");
    expect(applyFilePatch("a\nx\n", early, "f")).toBe("a\nX\n");
  });

  it("counts each line comparison against the allowed number, and may use all of them", () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+X\n");
    expect(applyFilePatch("a\nx\n", file, "f", { maxSearchComparisons: 1 })).toBe("a\nX\n");
    expect(toolErrorOf(() => applyFilePatch("a\nb\nx\n", file, "f", { maxSearchComparisons: 1 })).message).toContain(
      "searching for it took more than 1 line comparisons.",
    );
  });

  it("places each later hunk by the original file's line numbers, after the hunks before it", () => {
    const file = onePatch(
      "--- a/f\n+++ b/f\n@@ -1 +1,3 @@\n-line 1\n+one\n+two\n+three\n@@ -4 +6 @@\n-line 4\n+four\n@@ -6,0 +9 @@\n+after six\n",
    );
    expect(applyFilePatch(numbered(7), file, "f")).toBe(
      "one\ntwo\nthree\nline 2\nline 3\nfour\nline 5\nline 6\nafter six\nline 7\n",
    );
  });

  it("does not apply a hunk over the lines of the hunk before it", () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -2 +2 @@\n-x\n+X\n@@ -2 +2 @@\n-x\n+Y\n");
    expect(toolErrorOf(() => applyFilePatch("a\nx\nb\n", file, "f")).message).toContain(
      "its old lines (starting `x`) are not in the file after line 2, where the previous hunk ends.",
    );
    const inserting = onePatch("--- a/f\n+++ b/f\n@@ -3 +3 @@\n-b\n+B\n@@ -1,0 +2 @@\n+y\n");
    expect(toolErrorOf(() => applyFilePatch("a\nx\nb\n", inserting, "f")).message).toContain(
      "it inserts after line 1, inside or before the previous hunk, which ends at line 3. Order the hunks by line.",
    );
  });

  it("stops searching for a far-shifted hunk in a file of like lines after the allowed number of comparisons", () => {
    const content = "a\n".repeat(2000) + "b\n";
    const file = onePatch(`--- a/f\n+++ b/f\n@@ -1,21 +1,21 @@\n${" a\n".repeat(20)}-b\n+c\n`);
    const error = toolErrorOf(() => applyFilePatch(content, file, "f", { maxSearchComparisons: 10_000 }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      "Nothing was written: hunk `@@ -1,21 +1,21 @@` is far from where its header places it in `f`, and searching for it took more than 10000 line comparisons. Fix the line numbers in the `@@` headers.",
    );
    expect(applyFilePatch(content, file, "f")).toBe("a\n".repeat(2000) + "c\n");
    expect(applyFilePatch(content, file, "f", { maxSearchComparisons: 50_000 })).toBe("a\n".repeat(2000) + "c\n");
  });

  it("gives the same answers when it yields to the event loop", async () => {
    const file = onePatch("--- a/f\n+++ b/f\n@@ -2 +2 @@\n-x\n+X\n");
    await expect(applyFilePatchYielding("a\nx\n", file, "f")).resolves.toBe("a\nX\n");
    await expect(applyFilePatchYielding("a\ny\n", file, "f")).rejects.toThrow(
      "its old lines (starting `x`) are not in the file.",
    );
    const many = onePatch(
      `--- a/f\n+++ b/f\n${Array.from({ length: 1100 }, (_, index) => `@@ -${index + 1} +${index + 1} @@\n-${index}\n+${index}!`).join("\n")}\n`,
    );
    const content = Array.from({ length: 1100 }, (_, index) => `${index}\n`).join("");
    await expect(applyFilePatchYielding(content, many, "f")).resolves.toBe(applyFilePatch(content, many, "f"));
    const reason = new ToolError({ code: "cancelled", message: "The call was cancelled." });
    await expect(applyFilePatchYielding(content, many, "f", AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});

describe("applyFilePatch: creating and deleting", () => {
  it("deletes a file only when the patch removes all of it", () => {
    const file = onePatch("--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    expect(applyFilePatch("a\nb\n", file, "f")).toBeNull();
    const error = toolErrorOf(() => applyFilePatch("a\nb\nc\n", file, "f"));
    expect(error.code).toBe("conflict");
    expect(error.message).toBe(
      "Nothing was written: the patch deletes `f`, but 1 lines of it are not in the patch. Make the patch against the file's current content.",
    );
  });

  it("creates a file from nothing, with or without a final newline", () => {
    expect(applyFilePatch(null, onePatch("--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n"), "n")).toBe("a\nb\n");
    expect(
      applyFilePatch(null, onePatch("--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n"), "n"),
    ).toBe("a");
  });

  it("removes and adds a final newline only where the hunk reaches the end of the file", () => {
    expect(
      applyFilePatch("a\nb\n", onePatch("--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+c\n\\ No newline at end of file\n"), "f"),
    ).toBe("a\nc");
    expect(
      applyFilePatch("a\nb", onePatch("--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n"), "f"),
    ).toBe("a\nc\n");
    expect(applyFilePatch("a\nb\nc", onePatch("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+A\n"), "f")).toBe("A\nb\nc");
  });
});
