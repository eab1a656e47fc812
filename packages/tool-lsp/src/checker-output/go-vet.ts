import type { ParsedDiagnostic } from "./parsed-diagnostic.js";

/**
 * `go vet` output (on stderr): `file.go:line:col: message` for an analyzer's finding, the same
 * behind `vet: ` when the package does not type-check, and `# import/path` headers between packages.
 * Analyzer findings are suspicious code rather than compile errors, so they are warnings; a package
 * that does not type-check is an error. Paths are relative to the directory vet ran in.
 */
export function parseGoVetOutput(output: string): ParsedDiagnostic[] {
  const found: ParsedDiagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    // `s`: a message may hold a line separator (U+2028) or a lone carriage return.
    const match = /^(vet: )?(.+?\.go):(\d+)(?::\d+)?: (.+)/s.exec(line);
    if (match === null) continue;
    found.push({
      file: match[2]!,
      line: Number(match[3]),
      severity: match[1] === undefined ? "warning" : "error",
      message: match[4]!,
    });
  }
  return found;
}
