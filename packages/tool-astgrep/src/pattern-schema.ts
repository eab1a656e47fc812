import * as v from "valibot";
import { maxPatternLength } from "./pattern-limits.js";

/**
 * The `pattern` field of ast_grep and ast_edit. Its bound ({@link maxPatternLength}) is said in the
 * description and checked when the pattern is compiled, not in the schema: OpenAI's strict mode cannot
 * express a string length, and a schema that dropped it would accept what the tool refuses.
 */
export function patternSchema(description: string) {
  return v.pipe(v.string(), v.description(`${description} At most ${maxPatternLength} characters.`));
}
