import type { ParsedDiagnostic } from "./parsed-diagnostic.js";

function severityOf(category: string): ParsedDiagnostic["severity"] | undefined {
  switch (category) {
    case "error":
      return "error";
    case "warning":
      return "warning";
    case "suggestion":
    case "message":
      return "info";
    default:
      return undefined;
  }
}

/**
 * `tsc --pretty false` output: `file(line,col): error TS2322: message`, or `error TS18003: message`
 * for the configuration as a whole. The indented lines after a finding continue its message chain
 * and are left out, as the first line names the problem.
 */
export function parseTscOutput(output: string): ParsedDiagnostic[] {
  const found: ParsedDiagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    // `s`: a message may hold a line separator (U+2028) or a lone carriage return.
    const match = /^(?:(.+)\((\d+),\d+\): )?(\w+) (TS\d+): (.*)/s.exec(line);
    const severity = match === null ? undefined : severityOf(match[3]!);
    if (match === null || severity === undefined) continue;
    found.push(
      match[1] === undefined
        ? { severity, code: match[4]!, message: match[5]! }
        : { file: match[1], line: Number(match[2]), severity, code: match[4]!, message: match[5]! },
    );
  }
  return found;
}
