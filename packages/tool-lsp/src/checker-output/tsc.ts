import type { ParsedDiagnostic } from "./parsed-diagnostic.js";

const categories: Readonly<Record<string, ParsedDiagnostic["severity"]>> = { error: "error", warning: "warning", suggestion: "info", message: "info" };

/**
 * `tsc --pretty false` output: `file(line,col): error TS2322: message`, or `error TS18003: message`
 * for the configuration as a whole. The indented lines after a finding continue its message chain
 * and are left out, as the first line names the problem.
 */
export function parseTscOutput(output: string): ParsedDiagnostic[] {
  const found: ParsedDiagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    const located = /^(.+)\((\d+),\d+\): (\w+) (TS\d+): (.*)$/.exec(line);
    const global = located === null ? /^(\w+) (TS\d+): (.*)$/.exec(line) : null;
    if (located !== null) {
      const severity = categories[located[3]!];
      if (severity !== undefined) found.push({ file: located[1]!, line: Number(located[2]), severity, code: located[4]!, message: located[5]! });
    } else if (global !== null) {
      const severity = categories[global[1]!];
      if (severity !== undefined) found.push({ severity, code: global[2]!, message: global[3]! });
    }
  }
  return found;
}
