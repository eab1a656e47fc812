import { describe, expect, it } from "vitest";
import { applyFilePatch, parseUnifiedDiff } from "./unified-diff.js";

// Apart from the unit tests so that mutation testing, which reruns the covering tests for every
// mutant, need not rerun this one: it takes seconds where they take milliseconds.
describe("applyFilePatch at scale", () => {
  it("applies 100,000 hunks to a file of 200,000 lines", () => {
    const content = Array.from({ length: 200_000 }, (_, index) => `${index + 1}\n`).join("");
    const hunks = Array.from({ length: 100_000 }, (_, index) => `@@ -${index * 2 + 1} +${index},0 @@\n-${index * 2 + 1}`);
    const [file] = parseUnifiedDiff(`--- a/f\n+++ b/f\n${hunks.join("\n")}\n`);
    const expected = Array.from({ length: 100_000 }, (_, index) => `${index * 2 + 2}\n`).join("");
    expect(applyFilePatch(content, file!, "f")).toBe(expected);
  });
});
