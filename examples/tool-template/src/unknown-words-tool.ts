import { displayPath, readFileInWorkdir, resolveInWorkdir } from "@runbound/runtime-kit";
import { defineTool, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { DictionaryResource } from "./dictionary.js";

// Results are bounded: a long list is cut and says how many there were.
const maxListed = 50;

export const unknownWordsTool = defineTool({
  name: "unknown_words",
  tier: "read",
  description: "List the words of a text file that the run's dictionary does not know (a spell check).",
  input: v.strictObject({
    path: v.pipe(v.string(), v.description("File path, relative to the working directory.")),
  }),
  requires: [Workdir, DictionaryResource], // absent from the run until a dictionary is attached
  parallelSafe: true,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const dictionary = context.resource(DictionaryResource);
    const path = await resolveInWorkdir(workdir, input.path);
    const bytes = await readFileInWorkdir(workdir, path);
    if (bytes === null) {
      throw new ToolError({ code: "not_found", message: `File \`${input.path}\` does not exist. Check the path, relative to the working directory.` });
    }
    const words = bytes.toString("utf8").match(/[\p{L}']+/gu) ?? [];
    const unknown = [...new Set(words.filter((word) => !dictionary.has(word)))];
    const shown = displayPath(workdir, path);
    if (unknown.length === 0) return `${shown}: every word is in the ${dictionary.source}.`;
    const listed = unknown.slice(0, maxListed).join(", ");
    const cut = unknown.length > maxListed ? ` (${maxListed} of ${unknown.length}; split the file to see the rest)` : "";
    const noun = unknown.length === 1 ? "word" : "words";
    return `${shown}: ${unknown.length} unknown ${noun}${cut}: ${listed}`;
  },
});
