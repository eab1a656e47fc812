/** A line of a cell that is an IPython habit rather than Python: `%pip …`, `!ls`, `files = !ls`. */
export interface MagicLine {
  /** Offset of the line's first character (its indentation included). */
  start: number;
  /** Offset just past the line's last character (its newline excluded), continuation lines included. */
  end: number;
  /** The indentation, kept so an indented magic stays inside its block. */
  indent: string;
  /** `name = ` when the magic's output is assigned (`files = !ls`), else "". */
  target: string;
  /** "%" or "!". */
  escape: "%" | "!";
  /** What follows the escape, with backslash continuations joined by a space. */
  body: string;
}

type Context =
  { kind: "bracket" } | { kind: "string"; quote: string; triple: boolean; formatted: boolean } | { kind: "expression" };

const stringPrefix = /(?:^|[^A-Za-z0-9_])([rRbBuUfFtT]{0,2})$/;
const assignment = /^([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*=\s*(?=[%!])/;

function lineEnd(code: string, from: number): number {
  const newline = code.indexOf("\n", from);
  return newline === -1 ? code.length : newline;
}

// A magic line ends at its newline unless it ends in a backslash (IPython joins those).
function magicAt(code: string, start: number): MagicLine | undefined {
  let cursor = start;
  while (code[cursor] === " " || code[cursor] === "\t") cursor += 1;
  const indent = code.slice(start, cursor);
  let rest = code.slice(cursor, lineEnd(code, cursor));
  const assigned = assignment.exec(rest);
  const target = assigned === null ? "" : `${assigned[1]} = `;
  if (assigned !== null) rest = rest.slice(assigned[0].length);
  const escape = rest[0];
  if (escape !== "%" && escape !== "!") return undefined;
  // `!=` and `%=` at a line's start are broken Python, not magics; leave them for Python to report.
  if (rest[1] === "=") return undefined;
  const parts: string[] = [];
  let end = lineEnd(code, cursor);
  let piece = code.slice(cursor + (assigned?.[0].length ?? 0) + 1, end);
  while (piece.endsWith("\\") && end < code.length) {
    parts.push(piece.slice(0, -1).trimEnd());
    const next = end + 1;
    end = lineEnd(code, next);
    piece = code.slice(next, end).trimStart();
  }
  parts.push(piece);
  return { start, end, indent, target, escape, body: parts.join(" ") };
}

/**
 * The magic lines of a Python cell. A line counts only where a statement may start: not inside a
 * string (any quote kind, triple-quoted, f-strings and their nested expressions), not inside
 * brackets, not after a backslash continuation, so `"%s"`, `(10\n % 3)` and `a \\\n != b` stay Python.
 */
export function findMagicLines(code: string): MagicLine[] {
  const found: MagicLine[] = [];
  const stack: Context[] = [];
  let lineStart = true;
  let index = 0;
  while (index < code.length) {
    if (lineStart && stack.length === 0) {
      lineStart = false;
      const magic = magicAt(code, index);
      if (magic !== undefined) {
        found.push(magic);
        index = magic.end;
        continue;
      }
    }
    const character = code[index]!;
    const top = stack.at(-1);
    if (top?.kind === "string") {
      if (character === "\\") {
        index += 2;
        continue;
      }
      if (top.formatted && character === "{") {
        if (code[index + 1] === "{") index += 2;
        else {
          stack.push({ kind: "expression" });
          index += 1;
        }
        continue;
      }
      if (character === "\n" && !top.triple) {
        // An unterminated one-line string: Python will report it; scanning resumes as code.
        stack.pop();
        lineStart = stack.length === 0;
        index += 1;
        continue;
      }
      const closer = top.triple ? top.quote.repeat(3) : top.quote;
      if (code.startsWith(closer, index)) {
        stack.pop();
        index += closer.length;
        continue;
      }
      index += 1;
      continue;
    }
    if (character === "#") {
      index = lineEnd(code, index);
      continue;
    }
    if (character === "'" || character === '"') {
      const prefix = stringPrefix.exec(code.slice(Math.max(0, index - 3), index))?.[1] ?? "";
      const triple = code.startsWith(character.repeat(3), index);
      stack.push({ kind: "string", quote: character, triple, formatted: /[fFtT]/.test(prefix) });
      index += triple ? 3 : 1;
      continue;
    }
    if (character === "(" || character === "[" || character === "{") stack.push({ kind: "bracket" });
    else if (character === ")" || character === "]" || character === "}") {
      if (top !== undefined) stack.pop();
    } else if (character === "\\" && code[index + 1] === "\n") {
      index += 2;
      continue;
    } else if (character === "\n" && stack.length === 0) lineStart = true;
    index += 1;
  }
  return found;
}
