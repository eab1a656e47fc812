import { defineTool, textResult, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { AstGrepParser } from "./astgrep-parser.js";
import { astEditOutputSchema } from "./ast-edit-output.js";
import {
  describeReadings,
  describeScan,
  describeSkippedEntries,
  describeSyntaxErrors,
  explainNoMatches,
} from "./describe-search.js";
import { metavariableNames, assertTolerantReadingsFound } from "./pattern-compiler.js";
import { assertRewriteLength, maxRewriteLength } from "./pattern-limits.js";
import { patternSchema, ruleSchema } from "./pattern-schema.js";
import { planRewrite } from "./rewrite-plan.js";
import { ruleCaptures } from "./rule-compiler.js";
import { ruleFix } from "./rule-fix.js";
import { expansionSpans } from "./fix-expansion.js";
import { resolveQuery } from "./search-query-input.js";
import { templateNames } from "./template-expansion.js";

/** Structural rewrite, staged: computes the change and a preview, writes nothing until `resolve`. */
export const astEditTool = defineTool({
  name: "ast_edit",
  title: "Structural edit (staged)",
  tier: "write",
  hints: { destructive: false },
  description:
    "Structural rewrite (ast-grep): every match of `pattern` is replaced by `rewrite`, with metavariables ($NAME, $$$NAME) substituted by the code they captured (original spacing, separators and indentation kept). Writes nothing: it stages the change and answers a preview and an edit_id; call resolve with that edit_id and action accept (write all files or none) or discard. Matching works as in ast_grep.",
  input: v.strictObject({
    pattern: patternSchema("Code snippet to find, with metavariables, e.g. `dispose($X)`."),
    rule: ruleSchema(" Its `fix` (a template, or {template}) is the rewrite, unless `rewrite` is given."),
    rewrite: v.pipe(
      v.optional(v.string()),
      v.description(
        `Replacement code; may use the pattern's metavariables, e.g. \`$X.dispose()\`. Required with \`pattern\`; with \`rule\`, the rule's \`fix\` is used when this is absent. At most ${maxRewriteLength} characters.`,
      ),
    ),
    path: v.optional(
      v.pipe(
        v.string(),
        v.description(
          "File or directory to rewrite in, relative to the working directory. Default: the whole working directory.",
        ),
      ),
    ),
    language: v.optional(
      v.pipe(
        v.string(),
        v.description(
          "Grammar id (as in ast_grep). Default: from a file's extension; for a directory, every programming language present in which the pattern parses.",
        ),
      ),
    ),
  }),
  requires: [AstGrepParser, Workdir],
  parallelSafe: true,
  output: astEditOutputSchema,
  run: async (input, context) => {
    const parser = context.resource(AstGrepParser);
    const { query, scope, rule } = await resolveQuery(parser, context.resource(Workdir), input);
    const fix = ruleFix(rule, input.rewrite);
    // Checked here, not in the schema, so every export profile can state the schema faithfully.
    assertRewriteLength(fix.template);
    const captured: { single: string[]; multi: string[]; transformed?: string[] } =
      rule !== undefined
        ? ruleCaptures(rule)
        : metavariableNames(typeof query === "string" ? query.trim() : "context" in query ? query.context : "");
    const capturedNames = new Set([...captured.single, ...captured.multi, ...(captured.transformed ?? [])]);
    const unknown = templateNames(fix.template).filter((name) => !capturedNames.has(name));
    if (unknown.length > 0) {
      throw new ToolError({
        code: "invalid_input",
        message: `The ${fix.field} uses ${unknown.map((name) => `\`$${name}\``).join(", ")}, which the ${rule === undefined ? "pattern" : "rule"} does not capture (${capturedNames.size > 0 ? `it captures ${[...capturedNames].map((name) => `\`$${name}\``).join(", ")}` : "it captures nothing"}; \`$_\` and names starting with \`_\` capture nothing).`,
      });
    }
    const languages = parser.languages().available;
    const spansOf =
      rule === undefined || fix.expand === undefined
        ? undefined
        : expansionSpans(rule, fix.expand, languages, scope.language);
    const outcome = await parser.search({
      ...scope,
      pattern: query,
      keep: Number.POSITIVE_INFINITY,
      signal: context.signal,
      rewriting: true,
    });
    assertTolerantReadingsFound(outcome);
    if (outcome.total === 0)
      return textResult(`Nothing staged. ${explainNoMatches(outcome, parser.maxFileBytes, scope.workdir)}`, {
        total: 0,
      });
    const plan = planRewrite(
      scope.workdir,
      outcome.matches,
      fix.template,
      languages,
      outcome.syntaxErrors.regions,
      10 * 1024,
      spansOf,
    );
    const syntaxErrors = describeSyntaxErrors(outcome, scope.workdir);
    const inErrorText =
      plan.inErrorRegions.length > 0
        ? `\n${plan.inErrorRegions.length} ${plan.inErrorRegions.length === 1 ? "match was" : "matches were"} NOT rewritten because ${plan.inErrorRegions.length === 1 ? "it overlaps" : "each overlaps"} code the grammar could not parse (a rewrite there would write garbage): ${plan.inErrorRegions
            .slice(0, 10)
            .map((entry) => `${entry.displayPath}:${entry.line} (ERROR from line ${entry.errorLine})`)
            .join(
              ", ",
            )}${plan.inErrorRegions.length > 10 ? ", …" : ""}. Fix the syntax there first, or edit those places by hand.`
        : "";
    const overlapText =
      plan.overlaps.length > 0
        ? `\n${plan.overlaps.length} overlapping ${plan.overlaps.length === 1 ? "match was" : "matches were"} NOT rewritten (each lies inside or across a match that is): ${plan.overlaps
            .slice(0, 10)
            .map((overlap) => `${overlap.displayPath}:${overlap.line} (inside the match at line ${overlap.keptLine})`)
            .join(", ")}${plan.overlaps.length > 10 ? ", …" : ""}. After accepting, run ast_edit again to rewrite them.`
        : "";
    const unchangedText =
      plan.unchanged > 0
        ? `\n${plan.unchanged} ${plan.unchanged === 1 ? "match is" : "matches are"} already in the rewritten form (left as is).`
        : "";
    if (plan.files.length === 0) {
      const why =
        plan.inErrorRegions.length > 0
          ? `no match could be rewritten.${inErrorText}`
          : `all ${outcome.total} matches already read as the rewrite.`;
      return textResult(
        [`Nothing staged: ${why}${overlapText}`, syntaxErrors].filter((line) => line.length > 0).join("\n"),
        { total: outcome.total, staged: 0, in_error_regions: plan.inErrorRegions.length },
      );
    }
    const edit = parser.edits.stage(plan.files);
    const fileCount = plan.files.length;
    const parseWarnings =
      plan.newParseErrors
        .slice(0, 10)
        .map(
          (entry) =>
            `\nWarning: \`${entry.displayPath}\` would have ${entry.after} syntax errors after the rewrite (${entry.before} before); check the rewrite before accepting.`,
        )
        .join("") +
      (plan.newParseErrors.length > 10
        ? `\n… and ${plan.newParseErrors.length - 10} more files with new syntax errors.`
        : "");
    const text = [
      `(proposed) ${edit.replacements} ${edit.replacements === 1 ? "replacement" : "replacements"} in ${fileCount} ${fileCount === 1 ? "file" : "files"}; nothing written yet. ${describeScan(outcome, parser.maxFileBytes)}.`,
      describeSkippedEntries(outcome, scope.workdir),
      syntaxErrors,
      describeReadings(outcome) + overlapText + inErrorText + unchangedText + parseWarnings,
      plan.preview,
      `To write it, call resolve with edit_id "${edit.id}" and action "accept" (all files or none; refused if a file changed since now); to drop it, action "discard".`,
    ]
      .filter((line) => line.length > 0)
      .join("\n");
    return textResult(text, {
      edit_id: edit.id,
      replacements: edit.replacements,
      files: plan.files.map((file) => file.displayPath),
      overlaps: plan.overlaps.length,
      in_error_regions: plan.inErrorRegions.length,
    });
  },
});
