import { ConversationId, Workdir } from "@runbound/tool-kit";
import { describePluginConformance } from "@runbound/tool-kit/testing";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDebugSupervisor, DebugSupervisor } from "./debug-supervisor.js";
import debugPluginDefault, { debugPlugin } from "./index.js";
import { describe, expect, it } from "vitest";

describePluginConformance(debugPlugin, {
  resources: () => [
    [DebugSupervisor, createDebugSupervisor()],
    [Workdir, realpathSync(mkdtempSync(join(tmpdir(), "runbound-debug-conformance-")))],
    [ConversationId, "conversation-1"],
  ],
  sampleInputs: { debug: { op: "adapters" } },
});

describe("the package", () => {
  it("exports the plugin as its default export, with a supervisor provider that starts nothing", async () => {
    expect(debugPluginDefault).toBe(debugPlugin);
    const provider = debugPlugin.resourceProviders![0]!;
    expect(provider.key).toBe(DebugSupervisor);
    const instance = await provider.create({ workdir: tmpdir(), signal: new AbortController().signal });
    expect(await instance.describe!()).toContain("no debug session (TTL 1800 s");
    await instance.dispose!();
  });
});
