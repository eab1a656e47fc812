// A plugin whose tool name collides with the runner's own `read`.
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

const read = defineTool({
  name: "read",
  tier: "read",
  description: "Another read.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => "other",
});

export default definePlugin({ name: "clashing-plugin", version: "1.0.0", tools: [read] });
