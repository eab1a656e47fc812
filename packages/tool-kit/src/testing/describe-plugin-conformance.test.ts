import * as v from "valibot";
import { definePlugin } from "../define-plugin.js";
import { defineTool } from "../define-tool.js";
import { defineResource } from "../resource.js";
import { describePluginConformance } from "./describe-plugin-conformance.js";

const Greeting = defineResource<string>("example.greeting", "A greeting word.");

const greet = defineTool({
  name: "greet",
  tier: "read",
  description: "Greets someone with the attached greeting.",
  input: v.strictObject({ name: v.pipe(v.string(), v.description("Who to greet.")) }),
  requires: [Greeting],
  parallelSafe: true,
  run: async (input, context) => `${context.resource(Greeting)}, ${input.name}!`,
});

// The suite checks itself on a minimal, correct plugin.
describePluginConformance(definePlugin({ name: "example", version: "1.0.0", tools: [greet] }), {
  resources: () => [[Greeting, "Hello"]],
  sampleInputs: { greet: { name: "Ada" } },
});
