// A plugin whose one tool reports progress before it answers, as a long first-time wait does.
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

const countTo = defineTool({
  name: "count_to",
  tier: "read",
  description: "Counts to n, reporting each step as progress.",
  input: v.strictObject({ n: v.pipe(v.number(), v.description("How far to count.")) }),
  requires: [],
  parallelSafe: true,
  run: async (input, context) => {
    for (let step = 1; step <= input.n; step += 1) context.progress({ message: `counting`, progress: step, total: input.n });
    return `counted to ${input.n}`;
  },
});

export default definePlugin({ name: "progress-plugin", version: "1.0.0", tools: [countTo] });
