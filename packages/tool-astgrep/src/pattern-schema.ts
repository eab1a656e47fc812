import * as v from "valibot";
import { maxPatternLength, patternTooLongMessage } from "./pattern-limits.js";

/** The `pattern` field of ast_grep and ast_edit: a string bounded by {@link maxPatternLength}, said in its description. */
export function patternSchema(description: string) {
  return v.pipe(
    v.string(),
    v.maxLength(maxPatternLength, (issue) => patternTooLongMessage(Number(issue.received))),
    v.description(`${description} At most ${maxPatternLength} characters.`),
  );
}
