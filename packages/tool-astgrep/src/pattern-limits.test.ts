import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParserRun } from "./__fixtures__/create-parser-run.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { astEditTool, astGrepTool, createAstGrepParser } from "./index.js";
import { maxPatternDepth, maxPatternLength, maxRewriteLength } from "./pattern-limits.js";

let workspace: TempWorkspace;
beforeAll(async () => {
  workspace = await createTempWorkspace({ "a.ts": "foo(1);\nconst x = ((((y))));\n", "b.py": "foo(2)\n" });
});
afterAll(() => workspace.cleanup());

function createRun() {
  return createParserRun(workspace.dir);
}

interface PipeItem {
  type: string;
  requirement?: unknown;
  description?: string;
}

function pipeOf(schema: unknown): PipeItem[] {
  return (schema as { pipe?: PipeItem[] }).pipe ?? [];
}

function maxLengthOf(schema: unknown): unknown {
  return pipeOf(schema).find((item) => item.type === "max_length")?.requirement;
}

function descriptionOf(schema: unknown): string | undefined {
  return pipeOf(schema).find((item) => item.type === "description")?.description;
}

describe("hostile patterns", () => {
  it("refuses a pattern nesting deeper than the limit, naming it, instead of overflowing the stack", async () => {
    const deep = `${"(".repeat(300)}$A${")".repeat(300)}`;
    expect(deep.length).toBeLessThan(maxPatternLength);
    for (const path of ["a.ts", "."]) {
      const result = await createRun().call("ast_grep", { pattern: deep, path });
      expect(resultErrorCode(result), resultText(result)).toBe("invalid_input");
      expect(resultText(result)).toContain(`the limit is ${maxPatternDepth} levels`);
    }
    // Under the limit, nesting still parses and matches.
    const shallow = await createRun().call("ast_grep", { pattern: "((((y))))", path: "a.ts" });
    expect(shallow.structured?.["total"], resultText(shallow)).toBe(1);
  });

  it("refuses `a+` × 20,000 (used to overflow the stack and answer `internal`)", async () => {
    const result = await createRun().call("ast_grep", { pattern: "a+".repeat(20_000), path: "a.ts" });
    expect(resultErrorCode(result), resultText(result)).toBe("invalid_input");
    expect(resultText(result)).toContain(`the limit is ${maxPatternLength} characters`);
    // The parser resource refuses it too, for hosts that call it without the tool's schema.
    const parser = createAstGrepParser();
    expect(() => parser.compile(parser.language("typescript")!, "a+".repeat(20_000))).toThrow(
      /the limit is 4096 characters/,
    );
    expect(() => parser.compile(parser.language("typescript")!, `${"a+".repeat(2000)}a`)).toThrow(
      /the limit is 256 levels/,
    );
  });

  it("answers `$A.$B.$C.$D` × 200 at once as too deep (it used to compile for 19 s)", async () => {
    const chain = Array.from({ length: 200 }, () => "$A.$B.$C.$D").join(".");
    const result = await createRun().call("ast_grep", { pattern: chain, path: "a.ts" });
    expect(resultErrorCode(result), resultText(result)).toBe("invalid_input");
    expect(resultText(result)).toContain(`the limit is ${maxPatternDepth} levels`);
  });

  it("bounds pattern and rewrite by length in the tool, and says the bound in the schema's description", async () => {
    const long = `foo(${"1, ".repeat(maxPatternLength)}2)`;
    const search = await createRun().call("ast_grep", { pattern: long });
    expect(resultErrorCode(search)).toBe("invalid_input");
    expect(resultText(search)).toContain(
      `\`pattern\` is ${long.length} characters long; the limit is ${maxPatternLength} characters.`,
    );
    const rewrite = await createRun().call("ast_edit", {
      pattern: "foo($A)",
      rewrite: `bar($A${" ".repeat(maxRewriteLength)})`,
    });
    expect(resultErrorCode(rewrite)).toBe("invalid_input");
    expect(resultText(rewrite)).toContain(`the limit is ${maxRewriteLength} characters`);
    // Not a schema bound: OpenAI's strict mode cannot express one, and an export that dropped it would accept what the tool refuses.
    expect(maxLengthOf(astGrepTool.input.entries.pattern)).toBeUndefined();
    expect(maxLengthOf(astEditTool.input.entries.pattern)).toBeUndefined();
    expect(maxLengthOf(astEditTool.input.entries.rewrite)).toBeUndefined();
    expect(descriptionOf(astGrepTool.input.entries.pattern)).toContain(`At most ${maxPatternLength} characters`);
    expect(descriptionOf(astEditTool.input.entries.rewrite)).toContain(`At most ${maxRewriteLength} characters`);
  });
});
