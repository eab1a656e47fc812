import * as v from "valibot";

const count = (description: string) => v.pipe(v.number(), v.description(description));

/**
 * `structured` of ast_grep, the same for a search with matches and one without: the counts, what was
 * searched and left out, how the pattern was read, and the matches the text shows.
 */
export const astGrepOutputSchema = v.object({
  total: count("Matches found in all, however many are listed."),
  files: count("Files with at least one match."),
  scanned: v.pipe(
    v.record(v.string(), v.number()),
    v.description("Files read and searched, per language id, e.g. `{ typescript: 12 }`."),
  ),
  skipped: v.pipe(
    v.record(v.string(), v.number()),
    v.description(
      "Files and directories not searched, per reason (`too_large`, `binary`, `not_utf8`, `unreadable`, `unreadable_directory`, `not_regular`, `symlink`, …).",
    ),
  ),
  skipped_entries: v.pipe(
    v.array(
      v.object({
        path: v.pipe(v.string(), v.description("Workdir-relative path, its start cut with `…` when long.")),
        reason: v.pipe(v.string(), v.description("Why it was skipped, with the error code when there was one.")),
      }),
    ),
    v.description("The first skipped entries, in the order they were met."),
  ),
  syntax_errors: v.pipe(
    v.object({
      files: count("Parsed files with syntax errors; matches inside those regions may be missing."),
      parsed: count("Files parsed (only those holding the pattern's literal words are)."),
      first: v.pipe(
        v.array(v.string()),
        v.description('The first such files and their first error, e.g. `src/x.ts:36 (ERROR near "out A")`.'),
      ),
    }),
    v.description("Syntax errors the grammar could not read in the files parsed."),
  ),
  not_searched_grammars: v.pipe(
    v.array(
      v.object({
        language: v.pipe(v.string(), v.description("The grammar's language id.")),
        files: count("Files left out for it."),
        leftOut: v.pipe(
          v.boolean(),
          v.description("True when the grammar is installed but the parser's `languages` setting leaves it out."),
        ),
      }),
    ),
    v.description("Files a known grammar would read, left out because that grammar is not available."),
  ),
  readings: v.pipe(
    v.array(
      v.object({
        language: v.pipe(v.string(), v.description("The language id searched.")),
        kind: v.pipe(v.string(), v.description("The node kind the pattern was read as, e.g. `call_expression`.")),
        context: v.pipe(v.string(), v.description("The name of the context the pattern was read in.")),
        alternatives: v.pipe(
          v.array(
            v.object({
              context: v.pipe(v.string(), v.description("Code around the pattern, with metavariables.")),
              selector: v.pipe(v.string(), v.description("The node kind in `context` that is the pattern.")),
            }),
          ),
          v.description("Other readings, each as the pattern object to pass back as `pattern` to search it."),
        ),
      }),
    ),
    v.description("How the pattern was read in each language searched."),
  ),
  matches: v.pipe(
    v.array(
      v.object({
        path: v.pipe(v.string(), v.description("Workdir-relative path of the file.")),
        line: count("1-based line where the match starts."),
        column: count("1-based column where the match starts."),
        text: v.pipe(v.string(), v.description("The matched code, cut at 300 characters with `…`.")),
      }),
    ),
    v.description("The matches the text lists (at most `max_results`, fewer when the text's size bound cuts)."),
  ),
});
