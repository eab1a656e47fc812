import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "./index.js";

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

describe("files whose grammar is not offered", () => {
  it("a directory search names how many it left out and why, instead of skipping them silently", async () => {
    workspace = await createTempWorkspace({
      "a.ts": "console.log(1);\n",
      "b.py": "print(1)\n",
      "c.py": "print(2)\n",
      "notes.txt": "print(3)\n",
    });
    const run = createFakeRun({
      plugins: [astGrepPlugin],
      resources: [
        [AstGrepParser, createAstGrepParser({ languages: ["typescript"] })],
        [Workdir, workspace.dir],
      ],
    });
    const result = await run.call("ast_grep", { pattern: "console.log($A)" });
    const text = resultText(result);
    expect(text).toMatch(/^1 match in 1 file/);
    expect(text).toContain("not searched: 2 python files (the parser's `languages` setting leaves python out)");
    expect(text).not.toContain("txt");
    expect(result.structured?.["not_searched_grammars"]).toEqual([{ language: "python", files: 2, leftOut: true }]);
  });
});
