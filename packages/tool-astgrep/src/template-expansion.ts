import type { Capture } from "./search-match.js";

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
    .map((line, index) => {
      if (index === 0) return line;
      // A blank line gets no indentation (and keeps a CRLF file's `\r`).
      if (/^[ \t]*\r?$/.test(line)) return line.replace(/^[ \t]+/, "");
      return `${to}${line.startsWith(from) ? line.slice(from.length) : line.replace(/^[ \t]+/, "")}`;
    })
    .join("\n");
}

/** The file's line ending, so rewritten lines do not mix `\n` into a CRLF file. */
function lineEndingOf(source: string): string {
  const newline = source.indexOf("\n");
  return newline > 0 && source[newline - 1] === "\r" ? "\r\n" : "\n";
}

/**
 * Expand a rewrite template for one match. `$NAME`/`$$$NAME` become the captured source text (for
 * `$$$NAME` the slice from the first to the last captured node, separators included). Lines after the
 * first are indented like the matched code, and a multi-line capture keeps its inner indentation
 * relative to where it is inserted; new lines use the file's line ending. An empty `$$$NAME` drops an
 * adjacent `,` of the template, and a `$$$NAME` followed by the template's `,` drops its own trailing
 * one. Text is spliced by hand, never through a `$`-interpreting `String.replace` (a `$&` in captured
 * code would corrupt the result: research astgrep.md §1.4).
 */
export function expandTemplate(
  template: string,
  captures: Readonly<Record<string, Capture>>,
  source: string,
  matchStart: number,
): string {
  const matchIndent = indentationOfLine(source, matchStart);
  const lineEnding = lineEndingOf(source);
  let output = "";
  let cursor = 0;
  let dropLeadingSeparator = false;
  const appendLiteral = (literal: string): void => {
    let text = literal.replace(/\r?\n/g, "\n");
    if (dropLeadingSeparator) text = text.replace(/^[ \t]*,\s*/, "");
    dropLeadingSeparator = false;
    output += text.split("\n").join(`${lineEnding}${matchIndent}`);
  };
  for (const match of template.matchAll(templateMetavariable)) {
    appendLiteral(template.slice(cursor, match.index));
    cursor = match.index + match[0].length;
    const capture = captures[match[1]!];
    if (capture === undefined) {
      output += match[0];
      continue;
    }
    // An empty `$$$ARGS` takes one adjacent `,` of the template with it: `f(ctx, $$$ARGS)` with no
    // arguments becomes `f(ctx)`, not `f(ctx, )`, which C, Java and others reject.
    if (capture.multi && capture.text.length === 0) {
      const separator = /,\s*$/.exec(output);
      if (separator !== null) output = output.slice(0, separator.index);
      else dropLeadingSeparator = true;
      continue;
    }
    let text = capture.text;
    // A capture of `f(a, b,)` ends with the list's trailing `,`; when the template adds its own
    // (`g($$$ARGS, c)`), keep one, or the result would read `g(a, b,, c)`.
    if (capture.multi && /^[ \t]*,/.test(template.slice(cursor))) text = text.replace(/,\s*$/, "");
    // An empty `$$$` capture has no span either, but it never gets here; a capture without a span is
    // a `transform`'s text (a `rewrite` joined by newlines, say), which ast-grep's fixer indents as
    // code that starts at column 0.
    if (text.includes("\n")) {
      const lineStart = output.lastIndexOf("\n") + 1;
      // The template's first line continues the matched code's line, so its indentation is the match's.
      const currentIndent = lineStart === 0 ? matchIndent : /^[ \t]*/.exec(output.slice(lineStart))![0];
      text = reindent(text, capture.start >= 0 ? indentationOfLine(source, capture.start) : "", currentIndent);
    }
    output += text;
  }
  appendLiteral(template.slice(cursor));
  return output;
}
