import { displayPath } from "@runbound/runtime-kit";
import { defineTool, textResult, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { AstGrepParser } from "./astgrep-parser.js";
import { astGrepOutputSchema } from "./ast-grep-output.js";
import {
  describeReadings,
  describeScan,
  describeSkippedEntries,
  describeSyntaxErrors,
  explainNoMatches,
  skippedEntryView,
  syntaxErrorView,
} from "./describe-search.js";
import { assertTolerantReadingsFound, patternObjectOf } from "./pattern-compiler.js";
import { patternSchema, ruleSchema } from "./pattern-schema.js";
import { resolveQuery } from "./search-query-input.js";
import type { SearchMatch } from "./search-match.js";

const maxTextBytes = 15 * 1024;
const maxResultsLimit = 500;

function oneLine(text: string, limit: number): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed.length > limit ? `${collapsed.slice(0, limit - 1)}…` : collapsed;
}

function formatMatch(match: SearchMatch, workdir: string): string {
  const where = `${displayPath(workdir, match.path)}:${match.line + 1}${match.endLine > match.line ? `-${match.endLine + 1}` : `:${match.column + 1}`}`;
  const firstLine = match.text.split("\n")[0]!.trim();
  const code = oneLine(firstLine, 200) + (match.endLine > match.line ? " …" : "");
  const captures = Object.entries(match.captures).map(
    ([name, capture]) => `${capture.multi ? "$$$" : "$"}${name}=${oneLine(capture.text, 80)}`,
  );
  return `${where}: ${code}${captures.length > 0 ? `\n    ${captures.join("  ")}` : ""}`;
}

/** Structural search: find code by shape, with metavariables, in one file or a directory tree. */
export const astGrepTool = defineTool({
  name: "ast_grep",
  title: "Structural search",
  tier: "read",
  description:
    "Structural code search (ast-grep). Give `pattern` or an ast-grep `rule`. The pattern is code in the file's language with metavariables: $NAME matches one node, $$$NAME any number of nodes (e.g. call arguments), $_ one node without capturing; a repeated $NAME must match the same code (whitespace and line wrapping ignored). Whitespace never matters and strings/comments never match. Answers file:line with the matched code and captures, at most max_results (default 50) rows plus the total. Honours .gitignore; skips node_modules, .git, hidden, binary, non-UTF-8 and very large files.",
  input: v.strictObject({
    pattern: patternSchema(
      "Code snippet to find, e.g. `fmt.Println($$$ARGS)` or `if ($X != null) $X.dispose()`. One complete expression, statement or declaration.",
    ),
    rule: ruleSchema(" A `fix` in it is ignored here (ast_edit applies it)."),
    path: v.optional(
      v.pipe(
        v.string(),
        v.description(
          "File or directory to search, relative to the working directory. Default: the whole working directory.",
        ),
      ),
    ),
    language: v.optional(
      v.pipe(
        v.string(),
        v.description(
          "Grammar id: typescript, tsx, javascript, python, go, rust, c, cpp, java, kotlin, swift, csharp, ruby, php, scala, bash, lua, elixir, dart, haskell, solidity, zig, nix, hcl, html, css, json, yaml, toml, sql, markdown, angular. Default: from a file's extension; for a directory, every programming language present in which the pattern parses.",
        ),
      ),
    ),
    max_results: v.optional(
      v.pipe(
        v.number(),
        v.description(`Most matches to list (1–${maxResultsLimit}); default 50. The total is always counted.`),
      ),
    ),
  }),
  requires: [AstGrepParser, Workdir],
  parallelSafe: true,
  output: astGrepOutputSchema,
  run: async (input, context) => {
    const parser = context.resource(AstGrepParser);
    const maxResults = input.max_results ?? 50;
    if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > maxResultsLimit) {
      throw new ToolError({
        code: "invalid_input",
        message: `\`max_results\` is \`${maxResults}\`; give a whole number from 1 to ${maxResultsLimit}.`,
      });
    }
    const { query, scope } = await resolveQuery(parser, context.resource(Workdir), input);
    const outcome = await parser.search({ ...scope, pattern: query, keep: maxResults, signal: context.signal });
    assertTolerantReadingsFound(outcome);
    const structured = {
      total: outcome.total,
      files: outcome.filesWithMatches,
      scanned: outcome.scanned,
      skipped: outcome.skipped,
      skipped_entries: outcome.skippedEntries.map((entry) => skippedEntryView(entry, scope.workdir)),
      syntax_errors: {
        files: outcome.syntaxErrors.files,
        parsed: outcome.syntaxErrors.parsed,
        first: outcome.syntaxErrors.named.map((site) => syntaxErrorView(site, scope.workdir)),
      },
      not_searched_grammars: outcome.notInstalled,
      readings: outcome.compiled.map((compiled) => ({
        language: compiled.language.id,
        kind: compiled.reading.kind,
        context: compiled.reading.context.name,
        // Each other reading as the pattern object that searches it, to pass back as `pattern`.
        alternatives: compiled.alternatives.map(patternObjectOf),
      })),
      matches: outcome.matches.map((match) => ({
        path: displayPath(scope.workdir, match.path),
        line: match.line + 1,
        column: match.column + 1,
        text: match.text.length > 300 ? `${match.text.slice(0, 300)}…` : match.text,
      })),
    };
    if (outcome.total === 0)
      return textResult(explainNoMatches(outcome, parser.maxFileBytes, scope.workdir), structured);

    const scan = describeScan(outcome, parser.maxFileBytes);
    const skippedEntries = describeSkippedEntries(outcome, scope.workdir);
    const readings = [skippedEntries, describeSyntaxErrors(outcome, scope.workdir), describeReadings(outcome)]
      .filter((line) => line.length > 0)
      .join("\n");
    const rows: string[] = [];
    // The header and the readings grow with the number of languages searched; they share the bound.
    let bytes = Buffer.byteLength(scan) + Buffer.byteLength(readings);
    for (const match of outcome.matches) {
      const row = formatMatch(match, scope.workdir);
      bytes += Buffer.byteLength(row) + 1;
      if (bytes > maxTextBytes) break;
      rows.push(row);
    }
    structured.matches.length = rows.length;
    const header = `${outcome.total} ${outcome.total === 1 ? "match" : "matches"} in ${outcome.filesWithMatches} ${outcome.filesWithMatches === 1 ? "file" : "files"} (showing ${rows.length}); ${scan}.`;
    const footer =
      rows.length < outcome.total
        ? `\n… ${outcome.total - rows.length} more not shown. Narrow with a more specific pattern or \`path\`, or raise \`max_results\` (up to ${maxResultsLimit}).`
        : "";
    return textResult(`${header}\n${readings}\n${rows.join("\n")}${footer}`, structured);
  },
});
