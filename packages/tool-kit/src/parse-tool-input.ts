import * as v from "valibot";
import type { AnyTool } from "./define-tool.js";
import { dropNullOptionals } from "./drop-null-optionals.js";
import { findPrototypeKey, PROTOTYPE_KEYS } from "./find-prototype-key.js";
import { childSchema, unwrapSchema, type SchemaNode } from "./schema-node.js";
import { shortenForMessage } from "./shorten-for-message.js";
import { ToolError } from "./tool-error.js";

// Keys, paths and received values come from the caller: quoted, they are cut so a message stays small.
const maxQuotedLength = 120;
const maxQuotedIssueMessage = 300;
const maxIssuesShown = 10;

function fieldName(keys: readonly unknown[]): string {
  return shortenForMessage(keys.map(String).join("."), maxQuotedLength);
}

/** The schema of the value at `keys` below `root` (through optional/nullable wrappers, objects and arrays). */
function schemaAt(root: SchemaNode, keys: readonly unknown[]): SchemaNode | undefined {
  return unwrapSchema(keys.reduce<SchemaNode | undefined>((node, key) => childSchema(node, key), root));
}

function describeIssue(toolName: string, root: SchemaNode, issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((item) => item.key);
  const field = fieldName(keys);
  if (issue.type === "strict_object" && issue.expected === "never") {
    // The unknown key is the last of the path; the fields to list are those of the object holding it.
    const allowedFields = Object.keys(schemaAt(root, keys.slice(0, -1))?.entries ?? {});
    const owner = keys.length > 1 ? `\`${fieldName(keys.slice(0, -1))}\` in \`${toolName}\`` : `\`${toolName}\``;
    return `Field \`${field}\` is not accepted by ${owner}; its fields are ${allowedFields.map((name) => `\`${name}\``).join(", ") || "(none)"}.`;
  }
  // Every schema issue has a path: non-objects are refused before validation, and the root is a strict object.
  if (issue.kind === "schema" && issue.received === "undefined") {
    // valibot reports a missing key on the object, with the key as `expected`; the field's own schema knows the type.
    const expected = schemaAt(root, keys)?.expects ?? issue.expected;
    return `Field \`${field}\` is required (expected ${expected}).`;
  }
  if (issue.kind === "schema") {
    return `Field \`${field}\` must be ${issue.expected}, but got ${shortenForMessage(issue.received, maxQuotedLength)}.`;
  }
  const message = shortenForMessage(issue.message, maxQuotedIssueMessage);
  return field.length > 0 ? `Field \`${field}\`: ${message}.` : `${message}.`;
}

/**
 * Validate a call's raw input against the tool's own valibot schema; `null` for an optional field
 * counts as absent (OpenAI strict schemas make models send it). Hosts call this themselves and
 * never rely on a framework's validation (some accept invalid input; see runner research §5.3).
 *
 * @throws ToolError `invalid_input` naming each bad field, what was expected and what arrived.
 */
export function parseToolInput(tool: AnyTool, raw: unknown): unknown {
  const schema = tool.input as SchemaNode;
  const entries = schema.entries ?? {};
  // valibot's object schemas accept arrays as objects; say plainly that an object is expected.
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const got = raw === null ? "null" : raw === undefined ? "no input" : Array.isArray(raw) ? "an array" : `a ${typeof raw}`;
    const fields = Object.keys(entries).map((name) => `\`${name}\``).join(", ");
    throw new ToolError({
      code: "invalid_input",
      message: `Invalid input for \`${tool.name}\`: it must be a JSON object${fields.length > 0 ? ` with the fields ${fields}` : ""}, but got ${got}. Fix the input and call again.`,
    });
  }
  const prototypeKey = findPrototypeKey(schema, raw);
  if (prototypeKey !== undefined) {
    throw new ToolError({
      code: "invalid_input",
      message: `Invalid input for \`${tool.name}\`: Field \`${fieldName(prototypeKey)}\` is not accepted: the keys ${PROTOTYPE_KEYS.map((key) => `\`${key}\``).join(", ")} reach an object's prototype and never carry input. Put the fields in the object itself. Fix the input and call again.`,
    });
  }
  const result = v.safeParse(tool.input as v.GenericSchema, dropNullOptionals(schema, raw));
  if (result.success) return result.output;
  const lines = result.issues.slice(0, maxIssuesShown).map((issue) => describeIssue(tool.name, schema, issue));
  const more = result.issues.length - maxIssuesShown;
  if (more > 0) lines.push(`${more} more ${more === 1 ? "problem" : "problems"} not shown.`);
  throw new ToolError({
    code: "invalid_input",
    message: `Invalid input for \`${tool.name}\`: ${lines.join(" ")} Fix the input and call again.`,
  });
}
