import { isJsonObject } from "./is-json-object.js";
import type { ParsedDiagnostic } from "./parsed-diagnostic.js";

function severityOf(name: unknown): ParsedDiagnostic["severity"] | undefined {
  switch (name) {
    case "error":
      return "error";
    case "warning":
      return "warning";
    case "information":
      return "info";
    default:
      return undefined;
  }
}

function lineOf(range: unknown): number | undefined {
  if (!isJsonObject(range) || !isJsonObject(range["start"])) return undefined;
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
  if (!isJsonObject(document) || !Array.isArray(document["generalDiagnostics"])) return undefined;
  const found: ParsedDiagnostic[] = [];
  for (const item of document["generalDiagnostics"] as unknown[]) {
    if (!isJsonObject(item)) continue;
    const severity = severityOf(item["severity"]);
    if (severity === undefined) continue;
    const file = typeof item["file"] === "string" && item["file"].length > 0 ? item["file"] : undefined;
    const rule = typeof item["rule"] === "string" ? item["rule"] : undefined;
    found.push({ file, line: lineOf(item["range"]), severity, code: rule, message: String(item["message"] ?? "") });
  }
  return found;
}
