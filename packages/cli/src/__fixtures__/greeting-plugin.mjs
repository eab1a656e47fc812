// A third-party plugin as a user would write it, loaded with --plugin <path>.
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

const greet = defineTool({
  name: "greet",
  tier: "read",
  description: "Greets someone.",
  input: v.strictObject({ name: v.pipe(v.string(), v.description("Who to greet.")) }),
  requires: [],
  parallelSafe: true,
  run: async (input) => `Hello, ${input.name}!`,
});

export default definePlugin({ name: "greeting-plugin", version: "1.0.0", tools: [greet] });
