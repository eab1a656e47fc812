import { resultText, ToolError } from "@runbound/tool-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokenPatterns, validPatterns } from "./__fixtures__/pattern-corpus.js";
import { createParserRun } from "./__fixtures__/create-parser-run.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { findLanguage, languageTable } from "./language-registry.js";
import { compilePattern, tolerantReadingsFoundNothing } from "./pattern-compiler.js";

const extensions: Record<string, string> = {
  python: "py",
  go: "go",
  rust: "rs",
  c: "c",
  dart: "dart",
  typescript: "ts",
};
let workspace: TempWorkspace;
beforeAll(async () => {
  workspace = await createTempWorkspace();
});
afterAll(() => workspace.cleanup());

function runFor() {
  return createParserRun(workspace.dir);
}

describe("pattern corpus", () => {
  it("covers at least 20 valid and 20 broken patterns across python, go, rust, c, dart and typescript", () => {
    expect(validPatterns.length).toBeGreaterThanOrEqual(20);
    expect(brokenPatterns.length).toBeGreaterThanOrEqual(20);
    for (const language of Object.keys(extensions)) {
      expect(validPatterns.some((entry) => entry.language === language)).toBe(true);
      expect(brokenPatterns.some((entry) => entry.language === language)).toBe(true);
    }
  });

  it.each(validPatterns.map((entry, index) => [`${entry.language} \`${entry.pattern}\``, entry, index] as const))(
    "valid: %s parses and matches its fixture",
    async (_, entry, index) => {
      const file = `valid-${index}.${extensions[entry.language]}`;
      await workspace.write(file, entry.source);
      const result = await runFor().call("ast_grep", { pattern: entry.pattern, path: file });
      expect(result.isError, resultText(result)).toBeUndefined();
      expect(result.structured?.["total"], resultText(result)).toBe(entry.matches);
    },
  );

  it.each(brokenPatterns.map((entry, index) => [`${entry.language} \`${entry.pattern}\``, entry, index] as const))(
    "broken: %s is reported, not answered with a bare zero",
    async (_, entry, index) => {
      const file = `broken-${index}.${extensions[entry.language]}`;
      await workspace.write(file, "\n");
      const result = await runFor().call("ast_grep", { pattern: entry.pattern, path: file });
      // Refused at once, or read tolerantly: then the answer says so and a search finding nothing refuses it.
      expect(resultText(result)).toMatch(
        /does not parse as|it parsed with errors \(.*\), so this is ast-grep's best tolerant reading/,
      );
      let refusal: string;
      try {
        refusal =
          tolerantReadingsFoundNothing([compilePattern(findLanguage(languageTable(), entry.language)!, entry.pattern)])
            ?.message ?? "a clean reading";
      } catch (error) {
        refusal = error instanceof ToolError ? error.message : String(error);
      }
      expect(refusal).toContain("does not parse");
    },
  );
});
