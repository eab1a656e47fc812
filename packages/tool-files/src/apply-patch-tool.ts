import { displayPath, resolveInWorkdir, writeFilesAtomically, type FileChange } from "@runbound/runtime-kit";
import { defineTool, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { applyFilePatchYielding } from "./apply-file-patch.js";
import { readTextOrNull } from "./read-text-or-null.js";
import { maxPatchLength, parseUnifiedDiffYielding } from "./unified-diff.js";

/** `apply_patch`: apply a unified diff to any number of files, all or none. */
export const applyPatchTool = defineTool({
  name: "apply_patch",
  title: "Apply patch",
  tier: "write",
  description:
    "Apply a unified diff (as produced by `git diff` or `diff -u`) to files inside the working directory. `--- /dev/null` creates a file, `+++ /dev/null` deletes one, and git's `rename from`/`rename to` moves one. Every hunk must apply; otherwise nothing is written.",
  input: v.strictObject({
    patch: v.pipe(
      // The bound is checked by the parser, not the schema: OpenAI's strict mode cannot express a string length.
      v.string(),
      v.description(
        `The unified diff text, with \`--- a/path\`, \`+++ b/path\` headers and \`@@\` hunks; at most ${maxPatchLength} characters (split larger changes).`,
      ),
    ),
  }),
  requires: [Workdir],
  parallelSafe: false,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const changes: FileChange[] = [];
    const summary: string[] = [];
    let fileCount = 0;
    const claim = (path: string, shown: string): void => {
      if (changes.some((change) => change.path === path)) {
        throw new ToolError({
          code: "invalid_input",
          message: `The patch changes \`${shown}\` in two sections. Merge them into one section per file.`,
        });
      }
    };
    // Reading and applying yield to the event loop, so the call's budget and cancellation can stop a huge patch.
    for (const file of await parseUnifiedDiffYielding(input.patch, context.signal)) {
      const source = file.oldPath === null ? null : await resolveInWorkdir(workdir, file.oldPath);
      const target = file.newPath === null ? null : await resolveInWorkdir(workdir, file.newPath);
      const moved = source !== null && target !== null && source !== target;
      const shownSource = source === null ? "" : displayPath(workdir, source);
      const shown = target === null ? shownSource : displayPath(workdir, target);
      const current = source === null ? null : await readTextOrNull(workdir, source, shownSource);
      if (source !== null && current === null) {
        throw new ToolError({
          code: "not_found",
          message: `Nothing was written: the patch changes \`${shownSource}\`, which does not exist. Read the directory and make the patch against existing files.`,
        });
      }
      if (target !== null && (source === null || moved)) {
        if ((await readTextOrNull(workdir, target, shown)) !== null) {
          throw new ToolError({
            code: "conflict",
            message: `Nothing was written: the patch creates \`${shown}\`, which already exists. Patch it with \`--- a/${shown}\` instead.`,
          });
        }
      }
      const content = await applyFilePatchYielding(current, file, shown, context.signal);
      if (target !== null) {
        claim(target, shown);
        changes.push({ path: target, content, expected: moved ? null : current, label: shown });
      }
      if (source !== null && (target === null || (moved && file.copy !== true))) {
        claim(source, shownSource);
        changes.push({ path: source, content: null, expected: current, label: shownSource });
      }
      fileCount += 1;
      const edited = file.hunks.length > 0 ? " (modified)" : "";
      if (moved) summary.push(`${file.copy === true ? "copied" : "renamed"} ${shownSource} → ${shown}${edited}`);
      else summary.push(`${content === null ? "deleted" : current === null ? "created" : "modified"} ${shown}`);
      if (file.newMode !== undefined)
        summary.push(`(mode ${file.newMode} of ${shown} was not applied: apply_patch changes contents only)`);
    }
    await writeFilesAtomically(changes, { workdir });
    context.wrote(changes.map((change) => change.path));
    return `Applied the patch to ${fileCount} file${fileCount === 1 ? "" : "s"}:\n${summary.join("\n")}`;
  },
});
