import { displayPath, resolveInWorkdir, writeFilesAtomically } from "@runbound/runtime-kit";
import { defineTool, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { pathField } from "./path-field.js";
import { readTextOrNull } from "./read-text-or-null.js";

/** `write`: create or overwrite one file with the given content. */
export const writeTool = defineTool({
  name: "write",
  title: "Write file",
  tier: "write",
  description:
    "Create or overwrite a file inside the working directory with exactly `content`. Missing parent directories are created. Prefer `edit` for changing part of an existing file.",
  input: v.strictObject({
    path: pathField,
    content: v.pipe(v.string(), v.description("The complete new content of the file.")),
  }),
  requires: [Workdir],
  parallelSafe: true,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const path = await resolveInWorkdir(workdir, input.path);
    const relative = displayPath(workdir, path);
    const previous = await readTextOrNull(workdir, path, relative);
    await writeFilesAtomically([{ path, content: input.content, expected: previous, label: relative }], { workdir });
    context.wrote([path]);
    return `${previous === null ? "Created" : "Overwrote"} \`${relative}\` (${Buffer.byteLength(input.content)} bytes).`;
  },
});
