import { UsageError } from "./usage-error.js";

/** Parse a tool's input given on the command line; a mistake names the text and the JSON error. */
export function parseJsonInput(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new UsageError(`${where} is not valid JSON (${error instanceof Error ? error.message : String(error)}): \`${shown}\`. Quote the object for your shell, e.g. '{"path":"README.md"}'.`);
  }
}
