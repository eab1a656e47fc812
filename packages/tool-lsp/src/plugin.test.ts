import { Workdir } from "@runbound/tool-kit";
import { describePluginConformance } from "@runbound/tool-kit/testing";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import lspPluginDefault, { createLspSupervisor, LspSupervisor, lspPlugin } from "./index.js";

const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-lsp-conformance-")));
writeFileSync(join(workdir, "main.ts"), "export const answer = 42;\n");

describePluginConformance(lspPlugin, {
  // `status` is the sample: it must answer without starting a server.
  resources: () => [
    [LspSupervisor, createLspSupervisor({ pathVariable: "" })],
    [Workdir, workdir],
  ],
  sampleInputs: { lsp: { op: "status" } },
});

describe("plugin", () => {
  it("is the default export, named after the package, with a provider that starts nothing", async () => {
    expect(lspPluginDefault).toBe(lspPlugin);
    expect(lspPlugin.name).toBe("@runbound/tool-lsp");
    expect(lspPlugin.tools.map((tool) => [tool.name, tool.tier, tool.parallelSafe])).toEqual([
      ["lsp", "read", true],
      ["lsp_rename", "write", false],
    ]);
    expect(lspPlugin.observers.map((observer) => observer.name)).toEqual(["lsp diagnostics"]);
    const provider = lspPlugin.resourceProviders[0]!;
    expect(provider.key.id).toBe("lsp.supervisor");
    const instance = await provider.create({ workdir, signal: new AbortController().signal });
    const description = await instance.describe!();
    expect(description).toContain("Language servers (6 known");
    expect(description).toContain("- typescript:");
    expect(instance.value.running()).toEqual([]);
    await instance.dispose?.();
  });
});
