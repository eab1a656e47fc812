import type { NapiConfig } from "@ast-grep/napi";
import { ToolError } from "@runbound/tool-kit";
import { describeKindsNear } from "./grammar-kinds.js";
import type { LanguageInfo } from "./language-info.js";
import { metavariableNames, substituteMetavariables } from "./metavariable-text.js";
import { napi } from "./napi-binding.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import { assertPatternLength } from "./pattern-limits.js";

/** A pattern given with its context and the node kind to select in it, as ast-grep's pattern objects are. */
export interface PatternObject {
  /** Code in the target language around the pattern, with metavariables. */
  context: string;
  /** The kind of the node in `context` that is the pattern. */
  selector: string;
}

function invalid(message: string): ToolError {
  return new ToolError({ code: "invalid_input", message });
}

/**
 * Compile a pattern object: ast-grep reads it as given (its context parsed as written, the first
 * node of the selector's kind as the pattern). The object must select a node of its own context, or
 * it would match nothing without a word.
 *
 * @throws ToolError `invalid_input` for an unknown selector kind (with the kinds near it), or one the
 * context has no node of.
 */
export function compilePatternObject(language: LanguageInfo, object: PatternObject): CompiledPattern {
  assertPatternLength(object.context);
  const matcher: NapiConfig = { rule: { pattern: { context: object.context, selector: object.selector } } };
  let found: boolean;
  try {
    // The context is parsed as ast-grep parses it, with the grammar's expando character for `$`.
    found =
      napi()
        .parse(language.napiLang, substituteMetavariables(object.context, language.expandoChar))
        .root()
        .find(matcher) !== null;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error))
      .split("\n")
      .map((line) => line.replace(/^\s*\|->/, "").trim())
      .filter((line) => line.length > 0)
      .pop();
    const near = /Kind `[^`]+` is invalid/.test(reason ?? "") ? describeKindsNear(language, object.selector) : "";
    throw invalid(
      `The pattern's \`selector\` is \`${object.selector}\` with the context \`${object.context.slice(0, 200)}\`, which ast-grep refuses in ${language.id}: ${reason ?? "no reason given"}${near}.`,
    );
  }
  if (!found) {
    throw invalid(
      `The pattern's context \`${object.context.slice(0, 200)}\` has no \`${object.selector}\` node that ast-grep can match against itself in ${language.id}${describeKindsNear(language, object.selector)}. Pick the selector from the readings an answer offers, or give \`pattern\` as plain code.`,
    );
  }
  return {
    language,
    snippet: object.context.trim(),
    reading: {
      context: { name: "given context", prefix: "", suffix: "" },
      kind: object.selector,
      contextText: object.context,
      literals: [],
    },
    alternatives: [],
    matcher,
    captures: metavariableNames(object.context),
    hints: [],
    given: true,
  };
}
