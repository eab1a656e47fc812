import { textTooLong } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";

/**
 * The longest pattern accepted, in UTF-16 units. Published ast-grep rules and our pattern corpus use
 * patterns of 10 to 120 characters; a pasted function of a few dozen lines stays under this. Longer
 * input is a file pasted by mistake, and compiling it costs seconds per wrapping context.
 */
export const maxPatternLength = 4096;

/** The longest rewrite template accepted: a replacement block of a few hundred lines at most. */
export const maxRewriteLength = 16_384;

/**
 * The deepest syntax tree a pattern may parse into (wrapping context included). ast-grep matches a
 * pattern by recursion over its tree, on napi's worker threads, whose stacks overflow (a crash of the
 * whole process, not an exception) somewhere above 3,000 levels; real patterns nest fewer than 30.
 */
export const maxPatternDepth = 256;

const patternAdvice =
  "Search for a smaller, characteristic part of the code and use metavariables ($A, $$$ARGS) for the rest.";
const rewriteAdvice = "Rewrite in smaller steps, or edit the file directly for a change that large.";

/** @throws ToolError `invalid_input` when the pattern is longer than {@link maxPatternLength}. */
export function assertPatternLength(pattern: string): void {
  if (pattern.length > maxPatternLength) throw textTooLong("pattern", pattern.length, maxPatternLength, patternAdvice);
}

/** @throws ToolError `invalid_input` when the rewrite is longer than {@link maxRewriteLength}. */
export function assertRewriteLength(rewrite: string): void {
  if (rewrite.length > maxRewriteLength) throw textTooLong("rewrite", rewrite.length, maxRewriteLength, rewriteAdvice);
}

/** The error for a pattern whose syntax tree is deeper than {@link maxPatternDepth}. */
export function patternTooDeep(languageId: string): ToolError {
  return new ToolError({
    code: "invalid_input",
    message: `The pattern nests more than ${maxPatternDepth} levels deep as ${languageId} syntax; the limit is ${maxPatternDepth} levels. Match the outer shape with a metavariable standing for the nested part (e.g. \`f($A)\` instead of spelling out every level).`,
  });
}
