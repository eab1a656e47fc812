import * as v from "valibot";

/** `structured` of resolve: which edit was settled and how; an accepted one names the files written. */
export const resolveOutputSchema = v.object({
  edit_id: v.pipe(v.string(), v.description("The edit that was resolved, e.g. `edit_1`.")),
  action: v.pipe(
    v.picklist(["accept", "discard"]),
    v.description("`accept`: every file was written; `discard`: the edit was dropped and nothing written."),
  ),
  files: v.optional(
    v.pipe(v.array(v.string()), v.description("With `accept`: the workdir-relative paths of the files written.")),
  ),
});
