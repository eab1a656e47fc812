import { Workdir } from "@runbound/tool-kit";
import { describePluginConformance } from "@runbound/tool-kit/testing";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import astGrepPluginDefault, { AstGrepParser, astGrepPlugin, createAstGrepParser } from "./index.js";

const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-astgrep-conformance-")));
writeFileSync(join(workdir, "main.ts"), "function main() {\n  console.log(1, 2);\n}\n");

describePluginConformance(astGrepPlugin, {
  resources: () => [
    [AstGrepParser, createAstGrepParser()],
    [Workdir, workdir],
  ],
  sampleInputs: {
    ast_grep: { pattern: "console.log($$$ARGS)" },
    ast_edit: { pattern: "console.log($$$ARGS)", rewrite: "console.info($$$ARGS)" },
    resolve: { edit_id: "edit_1", action: "discard" },
  },
});

describe("plugin", () => {
  it("is the default export, named after the package, with a provider for the parser", async () => {
    expect(astGrepPluginDefault).toBe(astGrepPlugin);
    expect(astGrepPlugin.name).toBe("@runbound/tool-astgrep");
    expect(astGrepPlugin.tools.map((tool) => [tool.name, tool.tier, tool.parallelSafe])).toEqual([
      ["ast_grep", "read", true],
      ["ast_edit", "write", true],
      ["resolve", "write", false],
    ]);
    const provider = astGrepPlugin.resourceProviders[0]!;
    expect(provider.key.id).toBe("astgrep.parser");
    const instance = await provider.create({ workdir, signal: new AbortController().signal });
    expect(typeof instance.value.search).toBe("function");
    await instance.dispose?.();
  });
});
