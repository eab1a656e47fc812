import type { ParsedDiagnostic } from "./parsed-diagnostic.js";

const severities: Readonly<Record<string, ParsedDiagnostic["severity"]>> = { error: "error", warning: "warning", information: "info" };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function lineOf(range: unknown): number | undefined {
  if (!isRecord(range) || !isRecord(range["start"])) return undefined;
  const line = range["start"]["line"];
  return typeof line === "number" ? line + 1 : undefined;
}

/**
 * `pyright --outputjson`: one JSON document whose `generalDiagnostics` hold the findings, with
 * absolute file paths and 0-based lines. @returns `undefined` when the output is not that document
 * (pyright failed before it could write it, or the output was cut).
 */
export function parsePyrightJson(output: string): ParsedDiagnostic[] | undefined {
  let document: unknown;
  try {
    document = JSON.parse(output);
  } catch {
    return undefined;
  }
  if (!isRecord(document) || !Array.isArray(document["generalDiagnostics"])) return undefined;
  const found: ParsedDiagnostic[] = [];
  for (const item of document["generalDiagnostics"] as unknown[]) {
    if (!isRecord(item)) continue;
    const severity = severities[String(item["severity"])];
    if (severity === undefined) continue;
    const file = typeof item["file"] === "string" && item["file"].length > 0 ? item["file"] : undefined;
    const rule = typeof item["rule"] === "string" ? item["rule"] : undefined;
    found.push({ file, line: lineOf(item["range"]), severity, code: rule, message: String(item["message"] ?? "") });
  }
  return found;
}
