import { describe, expect, it } from "vitest";
import { VibeMode } from "@runbound/tool-kit";
import { describePluginConformance } from "@runbound/tool-kit/testing";
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
    const hints = Object.fromEntries(vibePlugin.tools.map((tool) => [tool.name, { tier: tool.tier, readOnly: tool.hints?.readOnly }]));
    expect(hints).toEqual({
      vibe_spawn: { tier: "read", readOnly: false },
      vibe_send: { tier: "read", readOnly: false },
      vibe_wait: { tier: "read", readOnly: undefined },
      vibe_kill: { tier: "read", readOnly: false },
      vibe_list: { tier: "read", readOnly: undefined },
    });
  });
});
