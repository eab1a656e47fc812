import { writeFilesAtomically } from "@runbound/runtime-kit";
import { defineTool, textResult, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { AstGrepParser } from "./astgrep-parser.js";
import { plural } from "./describe-search.js";
import { resolveOutputSchema } from "./resolve-output.js";

/** Accept (write all files or none) or discard an edit staged by `ast_edit`. */
export const resolveTool = defineTool({
  name: "resolve",
  title: "Accept or discard staged edits",
  tier: "write",
  description:
    "Accept or discard a change staged by ast_edit. accept first checks that every file still has the content it had when the change was staged (any difference rejects the whole change, naming the files), then writes all files or none. discard drops the change. Each edit_id can be resolved once.",
  input: v.strictObject({
    edit_id: v.pipe(v.string(), v.description('The id ast_edit answered, e.g. "edit_1".')),
    action: v.pipe(
      v.picklist(["accept", "discard"]),
      v.description("accept: write the staged change; discard: drop it."),
    ),
  }),
  requires: [AstGrepParser, Workdir],
  parallelSafe: false,
  output: resolveOutputSchema,
  run: async (input, context) => {
    const parser = context.resource(AstGrepParser);
    const workdir = context.resource(Workdir);
    const edit = parser.edits.pending(input.edit_id.trim());
    if (input.action === "discard") {
      const files = edit.files.length;
      parser.edits.settle(edit, "discarded");
      return textResult(
        `Discarded ${edit.id} (${plural(edit.replacements, "replacement")} in ${plural(files, "file")}); nothing was written.`,
        { edit_id: edit.id, action: "discard" },
      );
    }
    try {
      await writeFilesAtomically(
        edit.files.map((file) => ({
          path: file.path,
          content: file.updated,
          expected: file.original,
          label: file.displayPath,
        })),
        { workdir, fileSystem: parser.fileOperations },
      );
    } catch (error) {
      if (!ToolError.isInstance(error)) throw error;
      if (error.code === "conflict") {
        parser.edits.settle(edit, "rejected");
        throw new ToolError({
          code: "conflict",
          message: `Edit \`${edit.id}\` was rejected. ${error.message} Run ast_edit again on the current code.`,
          cause: error,
        });
      }
      throw new ToolError({
        code: error.code,
        message: `Writing edit \`${edit.id}\` failed. ${error.message} The edit is still pending: fix the cause and call resolve again.`,
        cause: error,
      });
    }
    const paths = edit.files.map((file) => file.path);
    const names = edit.files.map((file) => file.displayPath);
    const replacements = edit.replacements;
    parser.edits.settle(edit, "accepted");
    context.wrote(paths);
    return textResult(
      `Accepted ${edit.id}: wrote ${plural(replacements, "replacement")} in ${plural(names.length, "file")}: ${names.slice(0, 20).join(", ")}${names.length > 20 ? ", …" : ""}.`,
      {
        edit_id: edit.id,
        action: "accept",
        files: names,
      },
    );
  },
});
