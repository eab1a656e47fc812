import { withSyntaxErrors } from "./found-nodes.js";
import type { CompiledPattern } from "./pattern-compiler.js";

/** The key a pattern's results are kept under in the parse cache (whichever backend matched it). */
export function patternKey(compiled: CompiledPattern, rewriting: boolean): string {
  return JSON.stringify([
    compiled.language.id,
    withSyntaxErrors(compiled, rewriting),
    compiled.captures,
    compiled.reading.spannedTerminator ?? null,
  ]);
}
