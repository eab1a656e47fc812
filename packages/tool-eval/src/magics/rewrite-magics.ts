import { findMagicLines, type MagicLine } from "./find-magic-lines.js";

/** The magics a cell may use; every other one is answered by the kernel with this list. */
export const SUPPORTED_MAGICS = [
  "%pip",
  "%cd",
  "!command",
  "x = !command",
  "%%bash",
  "%timeit",
  "%%timeit",
  "%matplotlib",
] as const;

// A JSON string is a valid Python string literal (the same escapes), which spares a quoting routine.
function literal(text: string): string {
  return JSON.stringify(text);
}

function splitName(body: string): { name: string; rest: string } {
  const match = /^(\S*)\s*([\s\S]*)$/.exec(body)!;
  return { name: match[1]!, rest: match[2]!.trimEnd() };
}

function lineMagicCall(magic: MagicLine): string {
  if (magic.escape === "!") {
    const command = magic.body.trim();
    // `!pip install x` would run whichever pip is first on PATH; the kernel's own interpreter is meant.
    if (/^pip3?\s/.test(command) && magic.target === "")
      return `__runbound__.pip(${literal(command.replace(/^pip3?\s+/, ""))})`;
    return magic.target === ""
      ? `__runbound__.shell(${literal(command)})`
      : `__runbound__.getoutput(${literal(command)})`;
  }
  const { name, rest } = splitName(magic.body);
  switch (name) {
    case "pip":
      return `__runbound__.pip(${literal(rest)})`;
    case "cd":
      return `__runbound__.cd(${literal(rest)})`;
    case "timeit":
      return `__runbound__.timeit(${literal(rest)}, globals())`;
    case "matplotlib":
      // Figures always come back as images after the cell; `%matplotlib inline` asks for just that.
      return "None";
    default:
      return `__runbound__.unsupported(${literal(`%${name}`)})`;
  }
}

function cellMagic(code: string): string | undefined {
  const match = /^(\s*\n)*[ \t]*%%(\S*)[ \t]*([^\n]*)\n?([\s\S]*)$/.exec(code);
  if (match === null) return undefined;
  const [, , name, argumentsText, body] = match as unknown as [string, string | undefined, string, string, string];
  switch (name) {
    case "bash":
    case "sh":
      return `__runbound__.bash(${literal(body)})`;
    case "timeit":
      return `__runbound__.timeit(${literal(argumentsText.trim())}, globals(), ${literal(body)})`;
    default:
      return `__runbound__.unsupported(${literal(`%%${name}`)})`;
  }
}

/**
 * Turn a cell's IPython habits into calls of the executor's `__runbound__` hooks (see
 * `python/runbound_cell.py`), leaving everything that is Python untouched: `%` and `!` inside strings,
 * brackets and continuation lines are operators or text, not magics.
 */
export function rewriteMagics(code: string): string {
  const cell = cellMagic(code);
  if (cell !== undefined) return cell;
  const magics = findMagicLines(code);
  if (magics.length === 0) return code;
  let rewritten = "";
  let cursor = 0;
  for (const magic of magics) {
    rewritten += code.slice(cursor, magic.start) + magic.indent + magic.target + lineMagicCall(magic);
    cursor = magic.end;
  }
  return rewritten + code.slice(cursor);
}
