import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokenPatterns, validPatterns } from "./__fixtures__/pattern-corpus.js";
import { createParserRun } from "./__fixtures__/create-parser-run.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";

const extensions: Record<string, string> = { python: "py", go: "go", rust: "rs", c: "c", dart: "dart", typescript: "ts" };
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

  it.each(validPatterns.map((entry, index) => [`${entry.language} \`${entry.pattern}\``, entry, index] as const))("valid: %s parses and matches its fixture", async (_, entry, index) => {
    const file = `valid-${index}.${extensions[entry.language]}`;
    await workspace.write(file, entry.source);
    const result = await runFor().call("ast_grep", { pattern: entry.pattern, path: file });
    expect(result.isError, resultText(result)).toBeUndefined();
    expect(result.structured?.["total"], resultText(result)).toBe(entry.matches);
  });

  it.each(brokenPatterns.map((entry, index) => [`${entry.language} \`${entry.pattern}\``, entry, index] as const))("broken: %s is reported, not answered with zero matches", async (_, entry, index) => {
    const file = `broken-${index}.${extensions[entry.language]}`;
    await workspace.write(file, "\n");
    const result = await runFor().call("ast_grep", { pattern: entry.pattern, path: file });
    expect(resultErrorCode(result), resultText(result)).toBe("invalid_input");
    expect(resultText(result)).toContain("does not parse");
  });
});
