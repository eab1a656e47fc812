import { displayPath, readFileInWorkdir, resolveInWorkdir } from "@runbound/runtime-kit";
import { defineTool, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";

export const wordcountTool = defineTool({
  name: "wordcount", // lowercase letters, digits and _, at most 64 characters
  tier: "read", // no side effects: plan-mode callers see it too
  description: "Count the words of a text file inside the working directory.",
  input: v.strictObject({
    // strict: an unknown field is refused with a clear error
    path: v.pipe(v.string(), v.description("File path, relative to the working directory.")),
  }),
  requires: [Workdir], // registered only while the run has a working directory
  parallelSafe: true, // calls may overlap
  async run(input, context) {
    const workdir = context.resource(Workdir);
    // `..`, absolute paths and symlinks leading out of the workdir fail with `outside_workdir`.
    const path = await resolveInWorkdir(workdir, input.path);
    // Read through the workdir's directory handles, not by path: the path may have been swapped for a
    // symlink since it was resolved, and a named pipe would block. Both are refused with a clear error.
    const bytes = await readFileInWorkdir(workdir, path);
    if (bytes === null) {
      throw new ToolError({ code: "not_found", message: `File \`${input.path}\` does not exist. Check the path, relative to the working directory.` });
    }
    const words = bytes.toString("utf8").split(/\s+/).filter(Boolean).length;
    return `${displayPath(workdir, path)}: ${words} words`;
  },
});
