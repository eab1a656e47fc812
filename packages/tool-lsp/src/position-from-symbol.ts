import { ToolError } from "@runbound/tool-kit";

/** Where a `line` + `symbol` (+ `occurrence`) input points, before encoding conversion. */
export interface SymbolPosition {
  /** 0-based line. */
  line: number;
  /** UTF-16 index of the substring's first character in the line. */
  index: number;
  /** The line's text, without its line break. */
  lineText: string;
}

/** What {@link positionFromSymbol} needs. */
export interface SymbolPositionRequest {
  /** The whole file. */
  text: string;
  /** 1-based line number. */
  line: number;
  /** A substring of that line, usually an identifier. */
  symbol: string;
  /** 1-based; required when `symbol` occurs more than once on the line. */
  occurrence?: number | undefined;
  /** The file as messages name it. */
  shown: string;
}

const maxQuoted = 160;

function quoteLine(lineText: string): string {
  const trimmed = lineText.trim();
  return trimmed.length > maxQuoted ? `${trimmed.slice(0, maxQuoted - 1)}…` : trimmed;
}

function occurrencesOf(lineText: string, symbol: string): number[] {
  const found: number[] = [];
  for (let index = lineText.indexOf(symbol); index >= 0; index = lineText.indexOf(symbol, index + 1)) found.push(index);
  return found;
}

function candidates(lineText: string): string {
  const names = [...new Set(lineText.match(/[\p{L}\p{N}_$]+/gu) ?? [])].slice(0, 20);
  return names.length === 0
    ? "it holds no identifiers"
    : `identifiers on it: ${names.map((name) => `\`${name}\``).join(", ")}`;
}

/** The lines of a text, split on LF or CRLF. */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * Turn a 1-based line and a substring on it into a position. Never guesses: a line past the end, a
 * substring not on the line, or one that occurs several times without `occurrence` is an error that
 * quotes the line and lists what could be meant.
 */
export function positionFromSymbol(request: SymbolPositionRequest): SymbolPosition {
  const lines = splitLines(request.text);
  if (!Number.isInteger(request.line) || request.line < 1 || request.line > lines.length) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`line\` is \`${request.line}\`, but \`${request.shown}\` has lines 1 to ${lines.length}. Give a 1-based line number inside the file.`,
    });
  }
  if (request.symbol.length === 0) {
    throw new ToolError({
      code: "invalid_input",
      message: "`symbol` is empty. Give the identifier (or a substring of the line) the request is about.",
    });
  }
  const lineText = lines[request.line - 1]!;
  const found = occurrencesOf(lineText, request.symbol);
  const where = `line ${request.line} of \`${request.shown}\` (\`${quoteLine(lineText)}\`)`;
  if (found.length === 0) {
    const insensitive = lineText.toLowerCase().includes(request.symbol.toLowerCase())
      ? " It occurs there with different letter case; copy it exactly."
      : "";
    throw new ToolError({
      code: "not_found",
      message: `\`symbol\` \`${request.symbol}\` does not occur on ${where}; ${candidates(lineText)}.${insensitive} Check the line number or pick one of these.`,
    });
  }
  const occurrence = request.occurrence;
  if (occurrence === undefined) {
    if (found.length > 1) {
      throw new ToolError({
        code: "invalid_input",
        message: `\`symbol\` \`${request.symbol}\` occurs ${found.length} times on ${where}, at columns ${found.map((index) => index + 1).join(", ")}. Pass \`occurrence\` (1 to ${found.length}) to say which, or a longer substring.`,
      });
    }
    return { line: request.line - 1, index: found[0]!, lineText };
  }
  if (!Number.isInteger(occurrence) || occurrence < 1 || occurrence > found.length) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`occurrence\` is \`${occurrence}\`, but \`${request.symbol}\` occurs ${found.length} ${found.length === 1 ? "time" : "times"} on ${where}. Give a number from 1 to ${found.length}.`,
    });
  }
  return { line: request.line - 1, index: found[occurrence - 1]!, lineText };
}
