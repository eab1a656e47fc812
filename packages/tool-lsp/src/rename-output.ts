import * as v from "valibot";

/** `structured` of lsp_rename, answered once every file is written: what was renamed, and each file changed. */
export const renameOutputSchema = v.object({
  renamed: v.pipe(v.string(), v.description("The symbol's old name.")),
  to: v.pipe(v.string(), v.description("Its new name.")),
  edits: v.pipe(v.number(), v.description("Text edits applied in all files.")),
  files: v.pipe(
    v.array(
      v.object({
        shown: v.pipe(v.string(), v.description("Workdir-relative path after the rename.")),
        edits: v.pipe(v.number(), v.description("Text edits applied to it.")),
        renamedFrom: v.optional(
          v.pipe(v.string(), v.description("Its path before, when the server renamed the file.")),
        ),
        created: v.optional(v.pipe(v.boolean(), v.description("True when the server created the file."))),
        deleted: v.optional(v.pipe(v.boolean(), v.description("True when the server deleted the file."))),
      }),
    ),
    v.description("Every file written, created, renamed or deleted (all, also beyond the ones the text lists)."),
  ),
});
