import * as v from "valibot";

/** The `path` input every file tool takes; the same words for the model everywhere. */
export const pathField = v.pipe(
  v.string(),
  v.description("File path, relative to the working directory or absolute inside it."),
);
