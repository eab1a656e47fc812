import { describe, expect, it } from "vitest";
import { ToolError } from "@runbound/tool-kit";
import { applyFilePatch, applyFilePatchYielding, maxSearchComparisons } from "./apply-file-patch.js";
import { parseUnifiedDiff, parseUnifiedDiffYielding } from "./unified-diff.js";

// Apart from the unit tests so that mutation testing, which reruns the covering tests for every
// mutant, need not rerun this one: it takes seconds where they take milliseconds.
describe("applyFilePatch at scale", () => {
  it("applies 100,000 hunks to a file of 200,000 lines", () => {
    const content = Array.from({ length: 200_000 }, (_, index) => `${index + 1}\n`).join("");
    const hunks = Array.from(
      { length: 100_000 },
      (_, index) => `@@ -${index * 2 + 1} +${index},0 @@\n-${index * 2 + 1}`,
    );
    const [file] = parseUnifiedDiff(`--- a/f\n+++ b/f\n${hunks.join("\n")}\n`);
    const expected = Array.from({ length: 100_000 }, (_, index) => `${index * 2 + 2}\n`).join("");
    expect(applyFilePatch(content, file!, "f")).toBe(expected);
  });

  it("stops a search in a file of like lines after its default number of comparisons", () => {
    const blockLength = 200;
    const content = "a\n".repeat(Math.ceil(maxSearchComparisons / blockLength) + 1000) + "b\n";
    const [file] = parseUnifiedDiff(
      `--- a/f\n+++ b/f\n@@ -1,${blockLength + 1} +1,${blockLength + 1} @@\n${" a\n".repeat(blockLength)}-b\n+c\n`,
    );
    expect(() => applyFilePatch(content, file!, "f")).toThrow(
      `searching for it took more than ${maxSearchComparisons} line comparisons.`,
    );
  });

  it("lets a timer run while it reads and applies a long patch, and stops when the call is aborted", async () => {
    const content = Array.from({ length: 200_000 }, (_, index) => `${index + 1}\n`).join("");
    const patch = `--- a/f\n+++ b/f\n${Array.from({ length: 100_000 }, (_, index) => `@@ -${index * 2 + 1} +${index},0 @@\n-${index * 2 + 1}`).join("\n")}\n`;
    let turns = 0;
    const timer = setInterval(() => (turns += 1), 1);
    try {
      const [file] = await parseUnifiedDiffYielding(patch);
      const result = await applyFilePatchYielding(content, file!, "f");
      expect(result!.length).toBeLessThan(content.length);
      expect(turns).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
    const reason = new ToolError({ code: "timeout", message: "The call ran out of time." });
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 5);
    await expect(parseUnifiedDiffYielding(patch, controller.signal)).rejects.toBe(reason);
  });
});
