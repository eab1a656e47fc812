import { UsageError } from "./usage-error.js";

/** Where `runbound call` got its input: the command line or stdin (`-`). */
export type JsonInputSource = "argument" | "stdin";

const sources: Record<JsonInputSource, { name: string; howToFix: string }> = {
  argument: { name: "The input argument", howToFix: `Quote the object for your shell, as in '{"path":"README.md"}'.` },
  stdin: {
    name: "The input on stdin",
    howToFix: `Send one JSON object on stdin, as in \`echo '{"path":"README.md"}' | runbound call read -\`.`,
  },
};

/** How a JSON value that is not an object reads in a message (`a number`), or undefined for an object. */
export function nonObjectKind(value: unknown): string | undefined {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return undefined;
  return `a ${typeof value}`;
}

// A message is one line: JSON from stdin is often several, and Node's error quotes it as it is.
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, " ");
}

function shown(text: string): string {
  const line = oneLine(text);
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

/** Parse a tool's input given to `runbound call`; a mistake names the text, where it came from and the JSON error. */
export function parseJsonInput(text: string, source: JsonInputSource): Record<string, unknown> {
  const { name, howToFix } = sources[source];
  if (text.trim() === "") throw new UsageError(`${name} is empty. ${howToFix}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${name} is not valid JSON (${oneLine(error instanceof Error ? error.message : String(error))}): \`${shown(text)}\`. ${howToFix}`,
    );
  }
  const kind = nonObjectKind(value);
  if (kind !== undefined)
    throw new UsageError(`${name} is ${kind}, not a JSON object: \`${shown(text)}\`. ${howToFix}`);
  return value as Record<string, unknown>;
}
