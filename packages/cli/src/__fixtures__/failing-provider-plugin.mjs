// A plugin whose resource provider fails, as one that needs a git repository does outside one.
import { definePlugin, defineResource, defineResourceProvider, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

const Repository = defineResource("fixture.repository", "The project's git repository.");

const blame = defineTool({
  name: "blame_line",
  tier: "read",
  description: "Says who last changed a line.",
  input: v.strictObject({}),
  requires: [Repository],
  parallelSafe: true,
  run: async () => "someone",
});

export default definePlugin({
  name: "failing-provider-plugin",
  version: "1.0.0",
  tools: [blame],
  resourceProviders: [
    defineResourceProvider({
      key: Repository,
      create: () => {
        throw new Error("`git rev-parse` failed: not a git repository");
      },
    }),
  ],
});
