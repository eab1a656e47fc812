import * as v from "valibot";

/**
 * `structured` of ast_edit. Only `total` is always there: nothing to stage answers `total` alone (no
 * match) or with `staged: 0` (every match already rewritten or unrewritable), a staged change its
 * `edit_id` and what it changes. The preview is in the text only.
 */
export const astEditOutputSchema = v.object({
  total: v.optional(
    v.pipe(v.number(), v.description("Matches found, when nothing was staged (0 when the pattern matched nothing).")),
  ),
  staged: v.optional(v.pipe(v.literal(0), v.description("0 when matches were found but nothing was staged."))),
  edit_id: v.optional(
    v.pipe(v.string(), v.description("The staged change, e.g. `edit_1`: pass it to resolve to accept or discard.")),
  ),
  replacements: v.optional(v.pipe(v.number(), v.description("Replacements the staged change makes."))),
  files: v.optional(
    v.pipe(v.array(v.string()), v.description("Workdir-relative paths of the files the staged change rewrites.")),
  ),
  overlaps: v.optional(
    v.pipe(
      v.number(),
      v.description("Matches not rewritten because they lie inside or across one that is (run ast_edit again after)."),
    ),
  ),
  in_error_regions: v.optional(
    v.pipe(v.number(), v.description("Matches not rewritten because they overlap code the grammar could not parse.")),
  ),
});
