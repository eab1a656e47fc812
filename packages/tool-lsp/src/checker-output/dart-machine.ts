import type { ParsedDiagnostic } from "./parsed-diagnostic.js";

function severityOf(name: string): ParsedDiagnostic["severity"] | undefined {
  switch (name) {
    case "ERROR":
      return "error";
    case "WARNING":
      return "warning";
    case "INFO":
      return "info";
    default:
      return undefined;
  }
}

// Fields are separated by `|`; inside the path and the message a `|` or `\` is escaped with `\`,
// and a newline is written as `\n` (a carriage return as `\r`).
function splitFields(line: string): string[] {
  const fields: string[] = [];
  let current = "";
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (character === "\\" && index + 1 < line.length) {
      const next = line[++index]!;
      current += next === "n" ? "\n" : next === "r" ? "\r" : next;
    } else if (character === "|") {
      fields.push(current);
      current = "";
    } else {
      current += character;
    }
  }
  fields.push(current);
  return fields;
}

/**
 * `dart analyze --format=machine`: one line per finding,
 * `SEVERITY|TYPE|CODE|file|line|column|length|message`, with an absolute file path.
 */
export function parseDartMachineOutput(output: string): ParsedDiagnostic[] {
  const found: ParsedDiagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    const fields = splitFields(line);
    if (fields.length !== 8) continue;
    const [severityName, , code, file, lineNumber, , , message] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const severity = severityOf(severityName);
    if (severity === undefined || !/^\d+$/.test(lineNumber)) continue;
    found.push({ file, line: Number(lineNumber), severity, code, message });
  }
  return found;
}
