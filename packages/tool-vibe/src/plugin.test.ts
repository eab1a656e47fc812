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
