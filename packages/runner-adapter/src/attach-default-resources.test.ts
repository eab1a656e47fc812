import { defineResource, defineResourceProvider, definePlugin } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { attachDefaultResources } from "./attach-default-resources.js";
import { createRun } from "./create-run.js";

const Good = defineResource<string>("defaults.good", "Created fine.");
const Broken = defineResource<string>("defaults.broken", "Its provider throws.");
const Stuck = defineResource<string>("defaults.stuck", "Its provider never answers.");

const plugin = definePlugin({
  name: "defaults",
  version: "1.0.0",
  tools: [],
  resourceProviders: [
    defineResourceProvider({ key: Broken, create: () => { throw new Error("binary missing"); } }),
    defineResourceProvider({ key: Stuck, create: () => new Promise(() => undefined) }),
    defineResourceProvider({ key: Good, create: ({ workdir }) => ({ value: `for ${workdir}` }) }),
  ],
});

describe("attachDefaultResources", () => {
  it("attaches what it can and reports each failure, bounded in time", async () => {
    const run = createRun({ plugins: [plugin] });
    const failures = await attachDefaultResources(run, { workdir: "/w", timeoutMs: 50 });
    expect(run.resource(Good)).toBe("for /w");
    expect(run.isAttached(Broken)).toBe(false);
    expect(failures.get("defaults.broken")).toBe("binary missing");
    expect(failures.get("defaults.stuck")).toContain("Creating resource `defaults.stuck` did not finish within 50 ms");
  });

  it("keeps a resource the host attached itself", async () => {
    const run = createRun({ plugins: [plugin] });
    await run.attach(Good, { value: "mine" });
    await attachDefaultResources(run, { workdir: "/w", timeoutMs: 50 });
    expect(run.resource(Good)).toBe("mine");
  });
});
