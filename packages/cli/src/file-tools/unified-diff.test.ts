import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyFilePatch, parseUnifiedDiff } from "./unified-diff.js";

/** A diff made by the real `git diff --no-index`, so the parser meets what agents paste. */
async function gitDiff(before: string, after: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "runbound-diff-"));
  await writeFile(join(dir, "before"), before);
  await writeFile(join(dir, "after"), after);
  try {
    return execFileSync("git", ["diff", "--no-index", "--no-color", "before", "after"], { cwd: dir, encoding: "utf8" });
  } catch (error) {
    // git diff exits 1 when the files differ.
    return (error as { stdout: string }).stdout;
  }
}

const cases: Array<[string, string, string]> = [
  ["several hunks", Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\n", Array.from({ length: 30 }, (_, i) => (i % 10 === 3 ? `LINE ${i}` : `line ${i}`)).join("\n") + "\n"],
  ["a missing final newline added", "a\nb", "a\nb\n"],
  ["a final newline removed", "a\nb\n", "a\nc"],
  ["insertion at the top", "x\ny\n", "new\nx\ny\n"],
  ["CRLF line endings", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"],
];

describe("unified diff", () => {
  it.each(cases)("applies git's diff for %s", async (_name, before, after) => {
    const diff = await gitDiff(before, after);
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

  it("finds a hunk whose header points far past the end of a short file", () => {
    const [file] = parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1000,2 +1000,2 @@\n x\n-y\n+z\n");
    expect(applyFilePatch("x\ny\nw\n", file!, "f")).toBe("x\nz\nw\n");
  });

  it("refuses a hunk whose header counts more lines than it has", () => {
    expect(() => parseUnifiedDiff("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n x\n")).toThrow("hunk `@@ -1,3 +1,3 @@` ends early");
  });
});
