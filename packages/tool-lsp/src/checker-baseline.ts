import { extname, isAbsolute, resolve } from "node:path";
import type { Diagnostic, DiagnosticSeverity } from "vscode-languageserver-protocol";
import type { ParsedDiagnostic } from "./checker-output/parsed-diagnostic.js";
import type { DiagnosticsLedger } from "./diagnostics-ledger.js";
import type { CheckerOutputFormat, LspServerSpec } from "./server-spec.js";

const severities: Record<ParsedDiagnostic["severity"], DiagnosticSeverity> = { error: 1, warning: 2, info: 3 };

/**
 * A checker finding as its language server words the same diagnostic, so the ledger's keys (severity,
 * source and code, message) agree: `tsc`'s `TS2322` is tsserver's `typescript` 2322, the pyright CLI's
 * rule is the server's `Pyright` code. `undefined` for checkers whose wording differs from their
 * server's (`go vet` against gopls): those findings cannot serve as a baseline.
 */
function asServerDiagnostic(format: CheckerOutputFormat, finding: ParsedDiagnostic): Diagnostic | undefined {
  const line = Math.max(0, (finding.line ?? 1) - 1);
  const base = {
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    severity: severities[finding.severity],
    message: finding.message,
  };
  if (format === "tsc") {
    const code = /^TS(\d+)$/.exec(finding.code ?? "")?.[1];
    return code === undefined ? undefined : { ...base, source: "typescript", code: Number(code) };
  }
  if (format === "pyright-json")
    return { ...base, source: "Pyright", ...(finding.code === undefined ? {} : { code: finding.code }) };
  return undefined;
}

/**
 * After `diagnostics` `"*"` ran a project's checker: what it reported becomes what the run has been
 * told of each file of the project (a file it did not name is clean), so the first check of a file
 * after it shows only what is new against the checker's result. Projects whose checker words its
 * findings differently from the server are left alone.
 */
export function recordCheckerBaseline(
  ledger: DiagnosticsLedger,
  spec: LspServerSpec,
  root: string,
  findings: readonly ParsedDiagnostic[],
): void {
  const format = spec.checker?.format;
  if (format !== "tsc" && format !== "pyright-json") return;
  const byFile = new Map<string, Diagnostic[]>();
  for (const finding of findings) {
    if (finding.file === undefined) continue;
    const diagnostic = asServerDiagnostic(format, finding);
    if (diagnostic === undefined) continue;
    const path = isAbsolute(finding.file) ? finding.file : resolve(root, finding.file);
    byFile.set(path, [...(byFile.get(path) ?? []), diagnostic]);
  }
  for (const path of ledger.files()) {
    const inProject = path.startsWith(`${root}/`) && spec.languages[extname(path).toLowerCase()] !== undefined;
    if (inProject && !byFile.has(path)) ledger.update(path, []);
  }
  for (const [path, diagnostics] of byFile) ledger.update(path, diagnostics);
}
