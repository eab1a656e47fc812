import {
  defineResource,
  defineResourceProvider,
  definePlugin,
  defineTool,
  resultErrorCode,
  resultText,
} from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { attachDefaultResources } from "./attach-default-resources.js";
import { createRun } from "./create-run.js";

const Good = defineResource<string>("defaults.good", "Created fine.");
const Broken = defineResource<string>("defaults.broken", "Its provider throws.");
const Stuck = defineResource<string>("defaults.stuck", "Its provider never answers.");

const useBroken = defineTool({
  name: "use_broken",
  tier: "read",
  description: "Needs the broken resource.",
  input: v.strictObject({}),
  requires: [Broken],
  parallelSafe: true,
  run: async () => "ran",
});

const plugin = definePlugin({
  name: "defaults",
  version: "1.0.0",
  tools: [useBroken],
  resourceProviders: [
    defineResourceProvider({
      key: Broken,
      create: () => {
        throw new Error("binary missing");
      },
    }),
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

  it("names the provider's failure in the answer to a call that needs the resource, until it is attached", async () => {
    const run = createRun({ plugins: [plugin] });
    await attachDefaultResources(run, { workdir: "/w", timeoutMs: 50 });
    const refused = await run.call("use_broken", {});
    expect(resultErrorCode(refused)).toBe("unavailable");
    expect(resultText(refused)).toBe(
      "Error (unavailable): Tool `use_broken` needs `defaults.broken` (Its provider throws.), which this run does not have attached. `defaults.broken` is not attached because its provider failed: binary missing. Use another tool, or ask the host to attach it.",
    );
    await run.attach(Broken, { value: "fixed" });
    expect(resultText(await run.call("use_broken", {}))).toBe("ran");
    await run.detach(Broken);
    expect(resultText(await run.call("use_broken", {}))).not.toContain("provider failed");
  });

  it("keeps a resource the host attached itself", async () => {
    const run = createRun({ plugins: [plugin] });
    await run.attach(Good, { value: "mine" });
    await attachDefaultResources(run, { workdir: "/w", timeoutMs: 50 });
    expect(run.resource(Good)).toBe("mine");
  });
});
