import type { Capture } from "./structural-search.js";

const templateMetavariable = /(?<![\w$])\${1,3}([A-Z_][A-Z0-9_]*)/g;

/** The metavariable names a rewrite template uses. */
export function templateNames(template: string): string[] {
  return [...new Set([...template.matchAll(templateMetavariable)].map((match) => match[1]!))];
}

function indentationOfLine(source: string, index: number): string {
  const lineStart = source.lastIndexOf("\n", index - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart))![0];
}

function reindent(text: string, from: string, to: string): string {
  return text
    .split("\n")
    .map((line, index) => (index === 0 ? line : `${to}${line.startsWith(from) ? line.slice(from.length) : line.trimStart()}`))
    .join("\n");
}

/**
 * Expand a rewrite template for one match. `$NAME`/`$$$NAME` become the captured source text (for
 * `$$$NAME` the slice from the first to the last captured node, separators included). Lines after the
 * first are indented like the matched code, and a multi-line capture keeps its inner indentation
 * relative to where it is inserted. Text is spliced by hand, never through a `$`-interpreting
 * `String.replace` (a `$&` in captured code would corrupt the result: research astgrep.md §1.4).
 */
export function expandTemplate(template: string, captures: Readonly<Record<string, Capture>>, source: string, matchStart: number): string {
  const matchIndent = indentationOfLine(source, matchStart);
  let output = "";
  let cursor = 0;
  const appendLiteral = (literal: string): void => {
    output += literal.split("\n").join(`\n${matchIndent}`);
  };
  for (const match of template.matchAll(templateMetavariable)) {
    appendLiteral(template.slice(cursor, match.index));
    cursor = match.index + match[0].length;
    const capture = captures[match[1]!];
    if (capture === undefined) {
      output += match[0];
      continue;
    }
    let text = capture.text;
    if (text.includes("\n") && capture.start >= 0) {
      const currentLine = output.slice(output.lastIndexOf("\n") + 1);
      text = reindent(text, indentationOfLine(source, capture.start), /^[ \t]*/.exec(currentLine)![0]);
    }
    output += text;
  }
  appendLiteral(template.slice(cursor));
  return output;
}
