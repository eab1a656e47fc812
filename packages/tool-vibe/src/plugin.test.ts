import { describe, expect, it } from "vitest";
import { resultText, VibeMode } from "@runbound/tool-kit";
import { createFakeRun, describePluginConformance } from "@runbound/tool-kit/testing";
import * as v from "valibot";
import { createFunctionRoster } from "./function-roster.js";
import { vibePlugin } from "./plugin.js";
import { VibeRoster } from "./vibe-roster.js";

describePluginConformance(vibePlugin, {
  resources: () => [
    [VibeRoster, createFunctionRoster(async ({ brief }) => `did: ${brief}`)],
    [VibeMode, { defaultWorkerTier: "fast" }],
  ],
  sampleInputs: {
    vibe_spawn: { brief: "Count the TODOs.", label: "todos" },
    vibe_send: { worker_id: "w1", message: "Only in src/." },
    vibe_wait: { worker_id: "w1", timeout_seconds: 1 },
    vibe_kill: { worker_id: "w1" },
    vibe_list: {},
  },
});

describe("the vibe tools' hints", () => {
  it("say that spawning, messaging and killing a worker have effects, though a plan caller may do them; waiting and listing do not", () => {
    const hints = Object.fromEntries(
      vibePlugin.tools.map((tool) => [tool.name, { tier: tool.tier, readOnly: tool.hints?.readOnly }]),
    );
    expect(hints).toEqual({
      vibe_spawn: { tier: "read", readOnly: false },
      vibe_send: { tier: "read", readOnly: false },
      vibe_wait: { tier: "read", readOnly: undefined },
      vibe_kill: { tier: "read", readOnly: false },
      vibe_list: { tier: "read", readOnly: undefined },
    });
  });
});

describe("the vibe tools' structured results", () => {
  it("match each tool's declared output schema, through a whole worker's life", async () => {
    const roster = createFunctionRoster(async ({ brief, onOutput }) => {
      onOutput("working\n");
      return `did: ${brief}`;
    });
    const run = createFakeRun({
      plugins: [vibePlugin],
      resources: [
        [VibeRoster, roster],
        [VibeMode, { defaultWorkerTier: "fast" }],
      ],
    });
    const calls: Array<[string, Record<string, unknown>]> = [
      ["vibe_spawn", { brief: "Count the TODOs.", label: "todos" }],
      ["vibe_wait", { worker_id: "w1", timeout_seconds: 5 }],
      ["vibe_send", { worker_id: "w1", message: "Only in src/." }],
      ["vibe_wait", { worker_id: "w1", timeout_seconds: 5 }],
      ["vibe_list", {}],
      ["vibe_kill", { worker_id: "w1" }],
    ];
    for (const [name, input] of calls) {
      const result = await run.call(name, input);
      expect(result.isError, resultText(result)).not.toBe(true);
      const output = vibePlugin.tools.find((tool) => tool.name === name)!.output!;
      const checked = v.safeParse(output, result.structured);
      expect(checked.success, `${name}: ${JSON.stringify(checked.issues?.map((issue) => issue.message))}`).toBe(true);
    }
    await roster.dispose();
  });
});
