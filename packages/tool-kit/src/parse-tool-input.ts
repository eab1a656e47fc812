import * as v from "valibot";
import type { AnyTool } from "./define-tool.js";
import { ToolError } from "./tool-error.js";

function issuePath(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join(".");
}

type Entries = Record<string, { expects?: string } | undefined>;

function describeIssue(toolName: string, entries: Entries, issue: v.BaseIssue<unknown>): string {
  const field = issuePath(issue);
  const allowedFields = Object.keys(entries);
  if (issue.type === "strict_object" && issue.expected === "never") {
    return `Field \`${field}\` is not accepted by \`${toolName}\`; its fields are ${allowedFields.map((name) => `\`${name}\``).join(", ") || "(none)"}.`;
  }
  if (issue.kind === "schema" && issue.received === "undefined" && field.length > 0) {
    // valibot reports a missing key on the object, with the key as `expected`; the field's own schema knows the type.
    const expected = (field.includes(".") ? undefined : entries[field]?.expects) ?? issue.expected ?? "a value";
    return `Field \`${field}\` is required (expected ${expected}).`;
  }
  if (issue.kind === "schema" && field.length > 0) {
    return `Field \`${field}\` must be ${issue.expected ?? "valid"}, but got ${issue.received}.`;
  }
  if (issue.kind === "schema") {
    return `The input must be ${issue.expected ?? "valid"}, but got ${issue.received}.`;
  }
  return field.length > 0 ? `Field \`${field}\`: ${issue.message}.` : `${issue.message}.`;
}

/**
 * Validate a call's raw input against the tool's own valibot schema. Hosts call this themselves and
 * never rely on a framework's validation (some accept invalid input; see runner research §5.3).
 *
 * @throws ToolError `invalid_input` naming each bad field, what was expected and what arrived.
 */
export function parseToolInput(tool: AnyTool, raw: unknown): unknown {
  const entries = (tool.input as { entries?: Entries }).entries ?? {};
  // valibot's object schemas accept arrays as objects; say plainly that an object is expected.
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const got = raw === null ? "null" : Array.isArray(raw) ? "an array" : `a ${typeof raw}`;
    const fields = Object.keys(entries).map((name) => `\`${name}\``).join(", ");
    throw new ToolError({
      code: "invalid_input",
      message: `Invalid input for \`${tool.name}\`: it must be a JSON object${fields.length > 0 ? ` with the fields ${fields}` : ""}, but got ${got}. Fix the input and call again.`,
    });
  }
  const result = v.safeParse(tool.input as v.GenericSchema, raw);
  if (result.success) return result.output;
  const lines = result.issues.map((issue) => describeIssue(tool.name, entries, issue));
  throw new ToolError({
    code: "invalid_input",
    message: `Invalid input for \`${tool.name}\`: ${lines.join(" ")} Fix the input and call again.`,
  });
}
