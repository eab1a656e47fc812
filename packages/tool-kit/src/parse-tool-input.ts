import * as v from "valibot";
import type { AnyTool } from "./define-tool.js";
import { dropNullOptionals } from "./drop-null-optionals.js";
import { escapeLoneSurrogates, findIllFormedString, type IllFormedString } from "./find-ill-formed-string.js";
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

// Characters of an ill-formed string quoted on each side of its lone surrogate.
const excerptRadius = 30;

/** `text` around `index`, lone surrogates escaped, never starting or ending inside a surrogate pair. */
function excerptAround(text: string, index: number): string {
  let start = Math.max(0, index - excerptRadius);
  let end = Math.min(text.length, index + excerptRadius + 1);
  if (start > 0 && /[\udc00-\udfff]/.test(text.charAt(start)) && /[\ud800-\udbff]/.test(text.charAt(start - 1)))
    start -= 1;
  if (end < text.length && /[\ud800-\udbff]/.test(text.charAt(end - 1)) && /[\udc00-\udfff]/.test(text.charAt(end)))
    end += 1;
  return `${start > 0 ? "…" : ""}${escapeLoneSurrogates(text.slice(start, end))}${end < text.length ? "…" : ""}`;
}

function describeIllFormedString(found: IllFormedString): string {
  const where = found.inKey
    ? `The key \`${excerptAround(found.text, found.index)}\` ${found.path.length > 0 ? `of \`${fieldName(found.path)}\`` : "of the input"}`
    : `Field \`${fieldName(found.path)}\``;
  const quoted = found.inKey ? "" : ` of \`${excerptAround(found.text, found.index)}\``;
  const unit = `\\u${found.codeUnit.toString(16)}`;
  return `${where} is not well-formed Unicode text: it has a lone surrogate \`${unit}\` (half of a UTF-16 surrogate pair, without its other half) at position ${found.index}${quoted}, counted in UTF-16 code units from 0. Such a string has no UTF-8 form, so files and programs would receive it changed. Send the whole character (both halves of the pair, or the character itself), or remove the stray half.`;
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
 * Every string in the input, keys included and at any depth, must be well-formed UTF-16 (no lone
 * surrogate), whatever the schema says: this is the one check every host path shares (a run's
 * dispatch, its MCP server and AI SDK tools, the bridge, tool-kit's fake run), so no tool ever sees one.
 *
 * @throws ToolError `invalid_input` naming each bad field, what was expected and what arrived; for an
 * ill-formed string, the field or key, the position of the lone surrogate and how to fix it.
 */
export function parseToolInput(tool: AnyTool, raw: unknown): unknown {
  const schema = tool.input as SchemaNode;
  const entries = schema.entries ?? {};
  // valibot's object schemas accept arrays as objects; say plainly that an object is expected.
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const got =
      raw === null ? "null" : raw === undefined ? "no input" : Array.isArray(raw) ? "an array" : `a ${typeof raw}`;
    const fields = Object.keys(entries)
      .map((name) => `\`${name}\``)
      .join(", ");
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
  // Before the schema: its messages quote received values, and no tool should see such a string.
  const illFormed = findIllFormedString(raw);
  if (illFormed !== undefined) {
    throw new ToolError({
      code: "invalid_input",
      message: `Invalid input for \`${tool.name}\`: ${describeIllFormedString(illFormed)} Fix the input and call again.`,
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
