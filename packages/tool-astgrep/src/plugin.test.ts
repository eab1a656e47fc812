import { Workdir } from "@runbound/tool-kit";
import { describePluginConformance } from "@runbound/tool-kit/testing";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import astGrepPluginDefault, {
  AstGrepParser,
  astGrepPlugin,
  createAstGrepParser,
  createAstGrepPlugin,
} from "./index.js";

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

  it("createAstGrepPlugin hands its parser settings to each run's default parser, which status describes", async () => {
    const context = { workdir, signal: new AbortController().signal };
    const small = await createAstGrepPlugin({
      parser: { parseCacheBytes: 64 * 1024 * 1024 },
    }).resourceProviders[0]!.create(context);
    expect(small.value.parseCache?.stats().budgetBytes).toBe(64 * 1024 * 1024);
    expect(await small.describe?.()).toMatch(/^\d+ grammars — .*; parse cache: 0 files, 0\.0 MiB of 64 MiB;/);
    const off = await createAstGrepPlugin({ parser: { parseCacheBytes: 0 } }).resourceProviders[0]!.create(context);
    expect(off.value.parseCache).toBeUndefined();
    expect(await off.describe?.()).toMatch(/; parse cache: off; engine: /);
    expect(createAstGrepPlugin().tools).toEqual(astGrepPlugin.tools);
    await small.dispose?.();
    await off.dispose?.();
  });
});
