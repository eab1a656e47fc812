// A plugin whose tools declare an output schema, a title and hints, loaded with --plugin <path>.
import { definePlugin, defineTool, textResult } from "@runbound/tool-kit";
import * as v from "valibot";

const text = v.strictObject({ text: v.pipe(v.string(), v.description("The text to measure.")) });
const measure = (input) => {
  const lines = input.text.split("\n");
  return { lines: lines.length, longest: Math.max(...lines.map((line) => line.length)) };
};

const countLines = defineTool({
  name: "count_lines",
  title: "Count lines",
  tier: "read",
  description: "Counts the lines of a text and the length of the longest.",
  input: text,
  output: v.object({
    lines: v.pipe(v.number(), v.description("How many lines.")),
    longest: v.pipe(v.number(), v.description("Characters in the longest line.")),
  }),
  hints: { idempotent: true },
  requires: [],
  parallelSafe: true,
  run: async (input) => {
    const counts = measure(input);
    return textResult(`${counts.lines} lines, the longest has ${counts.longest} characters.`, counts);
  },
});

// Its answer breaks its own schema (`lines` as text): the bug a host must not pass on to a client.
const miscount = defineTool({
  name: "miscount",
  tier: "read",
  description: "Counts lines but reports the count as text.",
  input: text,
  output: v.object({ lines: v.number(), longest: v.number() }),
  requires: [],
  parallelSafe: true,
  run: async (input) => {
    const counts = measure(input);
    return textResult(`${counts.lines} lines.`, { ...counts, lines: String(counts.lines) });
  },
});

// An exec tool that claims no more than its tier: clients should read it as reaching anything.
const startNothing = defineTool({
  name: "start_nothing",
  tier: "exec",
  description: "Would start a process; starts none.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => "Nothing started.",
});

export default definePlugin({ name: "structured-plugin", version: "1.0.0", tools: [countLines, miscount, startNothing] });
