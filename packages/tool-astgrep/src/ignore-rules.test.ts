import { describe, expect, it } from "vitest";
import { parseIgnoreFile } from "./ignore-rules.js";

describe("parseIgnoreFile", () => {
  const rules = parseIgnoreFile(
    "# comment\n\nbuild/\n*.log\n!keep.log\n/root-only.txt\ndocs/**/*.tmp\n\\#hash\nsrc/gen-?.ts\n[abc].md\n",
  );

  it.each([
    ["build", true, true],
    ["build", false, undefined],
    ["a/build", true, true],
    ["x.log", false, true],
    ["deep/x.log", false, true],
    ["keep.log", false, false],
    ["root-only.txt", false, true],
    ["sub/root-only.txt", false, undefined],
    ["docs/a/b/c.tmp", false, true],
    ["docs/c.tmp", false, true],
    ["other/docs/c.tmp", false, undefined],
    ["#hash", false, true],
    ["src/gen-1.ts", false, true],
    ["src/gen-12.ts", false, undefined],
    ["b.md", false, true],
    ["d.md", false, undefined],
  ] as const)("%s (directory: %s) → %s", (path, isDirectory, expected) => {
    expect(rules.match(path, isDirectory)).toBe(expected);
  });
});

describe("parseIgnoreFile case", () => {
  it("matches case-sensitively, as git (core.ignoreCase false) and ripgrep do", () => {
    const rules = parseIgnoreFile("*.log\nBuild/\n");
    expect(rules.match("debug.log", false)).toBe(true);
    expect(rules.match("DEBUG.LOG", false)).toBeUndefined();
    expect(rules.match("build", true)).toBeUndefined();
  });
});
