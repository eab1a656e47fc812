import { dirname, isAbsolute, join, relative } from "node:path";
import { isJsonObject } from "./is-json-object.js";
import type { ParsedDiagnostic } from "./parsed-diagnostic.js";

// Notes and help are parts of a finding, not findings.
function severityOf(level: unknown): ParsedDiagnostic["severity"] | undefined {
  if (level === "error") return "error";
  return level === "warning" ? "warning" : undefined;
}

// rustc runs from the workspace root, so a span's file is relative to it, not to the member the
// check ran in. The workspace root is the ancestor of the package whose path from there starts the
// file name (`crates/app/src/lib.rs` under `/ws` for the package `/ws/crates/app`); a package that is
// its own workspace matches none and is the base itself.
function absoluteFile(fileName: string, manifestPath: unknown): string {
  if (isAbsolute(fileName) || typeof manifestPath !== "string") return fileName;
  const packageDirectory = dirname(manifestPath);
  for (let base = dirname(packageDirectory); ; base = dirname(base)) {
    const prefix = relative(base, packageDirectory);
    if (fileName.startsWith(`${prefix}/`)) return join(base, fileName);
    if (dirname(base) === base) return join(packageDirectory, fileName);
  }
}

function parseLine(line: string): ParsedDiagnostic | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isJsonObject(record) || record["reason"] !== "compiler-message" || !isJsonObject(record["message"]))
    return undefined;
  const message = record["message"];
  const severity = severityOf(message["level"]);
  if (severity === undefined) return undefined;
  const code =
    isJsonObject(message["code"]) && typeof message["code"]["code"] === "string" ? message["code"]["code"] : undefined;
  const spans = Array.isArray(message["spans"]) ? (message["spans"] as unknown[]).filter(isJsonObject) : [];
  const primary = spans.find((span) => span["is_primary"] === true);
  const text = String(message["message"] ?? "");
  if (primary === undefined || typeof primary["file_name"] !== "string") return { severity, code, message: text };
  const lineStart = typeof primary["line_start"] === "number" ? primary["line_start"] : undefined;
  return {
    file: absoluteFile(primary["file_name"], record["manifest_path"]),
    line: lineStart,
    severity,
    code,
    message: text,
  };
}

/**
 * `cargo check --message-format=json`: one JSON object a line; the `compiler-message` ones carry
 * rustc's diagnostics, located by their primary span; notes and help are left out.
 */
export function parseCargoJson(output: string): ParsedDiagnostic[] {
  const found: ParsedDiagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    const diagnostic = parseLine(line);
    if (diagnostic !== undefined) found.push(diagnostic);
  }
  return found;
}
