import * as v from "valibot";

/**
 * `structured` of ask_user: complete on its own (a client may show the model this instead of the
 * text), so a skip says how it happened and the model still knows to proceed on an assumption.
 */
export const askUserOutputSchema = v.object({
  status: v.pipe(
    v.picklist(["answered", "skipped"]),
    v.description(
      "`answered`, or `skipped` (the operator passed, or the same question was asked before in this run): then proceed on a stated assumption.",
    ),
  ),
  choices: v.optional(
    v.pipe(
      v.array(v.object({ number: v.number(), label: v.string() })),
      v.description("The options chosen, by their number on the card and label."),
    ),
  ),
  text: v.optional(v.pipe(v.string(), v.description("What the operator wrote in their own words."))),
  via: v.optional(v.pipe(v.string(), v.description("How the question was skipped."))),
});
