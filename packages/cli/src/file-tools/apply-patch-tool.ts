import { readFile } from "node:fs/promises";
import { defineTool, displayPath, resolveInWorkdir, ToolError, Workdir, writeFilesAtomically, type FileChange } from "@runbound/tool-kit";
import * as v from "valibot";
import { applyFilePatch, parseUnifiedDiff } from "./unified-diff.js";

/** `apply_patch`: apply a unified diff to any number of files, all or none. */
export const applyPatchTool = defineTool({
  name: "apply_patch",
  tier: "write",
  description:
    "Apply a unified diff (as produced by `git diff` or `diff -u`) to files inside the working directory. `--- /dev/null` creates a file, `+++ /dev/null` deletes one. Every hunk must apply; otherwise nothing is written.",
  input: v.strictObject({
    patch: v.pipe(v.string(), v.description("The unified diff text, with `--- a/path`, `+++ b/path` headers and `@@` hunks.")),
  }),
  requires: [Workdir],
  parallelSafe: false,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const changes: FileChange[] = [];
    const summary: string[] = [];
    for (const file of parseUnifiedDiff(input.patch)) {
      const target = await resolveInWorkdir(workdir, (file.newPath ?? file.oldPath)!);
      const shown = displayPath(workdir, target);
      if (changes.some((change) => change.path === target)) {
        throw new ToolError({ code: "invalid_input", message: `The patch changes \`${shown}\` in two sections. Merge them into one section per file.` });
      }
      const current = await readFile(target, "utf8").catch(() => null);
      if (file.oldPath === null && current !== null) {
        throw new ToolError({ code: "conflict", message: `Nothing was written: the patch creates \`${shown}\`, which already exists. Patch it with \`--- a/${shown}\` instead.` });
      }
      if (file.oldPath !== null && current === null) {
        throw new ToolError({ code: "not_found", message: `Nothing was written: the patch changes \`${shown}\`, which does not exist.` });
      }
      const content = applyFilePatch(current, file, shown);
      changes.push({ path: target, content, expected: current });
      summary.push(`${content === null ? "deleted" : current === null ? "created" : "modified"} ${shown}`);
    }
    await writeFilesAtomically(changes);
    context.wrote(changes.map((change) => change.path));
    return `Applied the patch to ${changes.length} file${changes.length === 1 ? "" : "s"}:\n${summary.join("\n")}`;
  },
});
