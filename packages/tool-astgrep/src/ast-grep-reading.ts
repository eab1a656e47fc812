import type { SgNode } from "@ast-grep/napi";
import type { LanguageInfo } from "./language-info.js";
import { napi } from "./napi-binding.js";
import { substituteMetavariables } from "./metavariable-text.js";

/**
 * The node ast-grep reads a bare pattern as: from the root down while a node has one child, or a
 * second one that is zero-width (a MISSING token; ast-grep's `is_single_node`).
 */
export function patternRootOf(root: SgNode): SgNode {
  let node = root;
  for (
    let children = node.children();
    children.length === 1 || (children.length === 2 && isZeroWidth(children[1]!));
    children = node.children()
  )
    node = children[0]!;
  return node;
}

function isZeroWidth(node: SgNode): boolean {
  const range = node.range();
  return range.start.index === range.end.index;
}

/**
 * The node kind ast-grep reads a bare pattern string as (what its CLI's `-p` and a rule's
 * `pattern: …` use), `ERROR` for a snippet it matches against code of any kind, or undefined when
 * the snippet is not one node to ast-grep.
 */
export function astGrepKindOf(language: LanguageInfo, snippet: string): string | undefined {
  try {
    return String(
      patternRootOf(
        napi().parse(language.napiLang, substituteMetavariables(snippet, language.expandoChar)).root(),
      ).kind(),
    );
  } catch {
    return undefined;
  }
}

/** A reading of a snippet in a context, as far as agreement with ast-grep's own reading needs it. */
export interface ContextReading {
  /** The full context text, with `$` metavariables. */
  contextText: string;
  /** Where the snippet starts in it. */
  snippetStart: number;
  /** Where the reading's node ends in it. */
  nodeEnd: number;
  kind: string;
}

/**
 * Whether ast-grep's own reading of the bare snippet (the one its CLI uses for `-p`) matches the
 * reading's node in the reading's own context: then both find the same code. Go `interface{}` is one:
 * ast-grep reads it as `interface_type` below an ERROR at the top level, where a clean reading in an
 * interface body is a `type_elem`, which finds no parameter or return type.
 */
export function astGrepAgrees(language: LanguageInfo, snippet: string, reading: ContextReading): boolean {
  try {
    const root = napi()
      .parse(language.napiLang, substituteMetavariables(reading.contextText, language.expandoChar))
      .root();
    return root.findAll({ rule: { pattern: snippet } }).some((node) => {
      const range = node.range();
      return (
        range.start.index === reading.snippetStart &&
        range.end.index === reading.nodeEnd &&
        node.kind() === reading.kind
      );
    });
  } catch {
    // napi refuses a bare snippet that is several nodes to it: there is no reading of its own to agree with.
    return false;
  }
}
