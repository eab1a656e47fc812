import type { AnyTool } from "@runbound/tool-kit";
import * as v from "valibot";

const maxIssuesShown = 3;
const maxReceivedLength = 120;

function describeIssue(issue: v.BaseIssue<unknown>): string {
  // Issues lie below the root, which is known to be an object; JSON keys are strings and indexes, so the path always has one.
  const field = `\`structured.${v.getDotPath(issue)}\``;
  if (issue.type === "strict_object" && issue.expected === "never") return `field ${field} is not in the schema`;
  if (issue.kind === "schema" && issue.received === "undefined") return `field ${field} is missing`;
  if (issue.kind === "schema") {
    const received =
      issue.received.length > maxReceivedLength ? `${issue.received.slice(0, maxReceivedLength)}…` : issue.received;
    return `field ${field} must be ${issue.expected}, but got ${received}`;
  }
  return `field ${field}: ${issue.message}`;
}

/**
 * What is wrong with a successful result's `structured` for a tool that declares an `output`
 * schema, or its JSON form when nothing is. The check runs on the JSON form, because that is what a
 * client receives and validates (a `Date` arrives as a string, an `undefined` field not at all).
 */
export function structuredResultProblem(
  tool: AnyTool,
  structured: unknown,
): { problem: string } | { json: Record<string, unknown> } {
  if (structured === undefined) return { problem: "declares an output schema but answered no `structured` result" };
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(structured)) as unknown;
  } catch (error) {
    return {
      problem: `answered a \`structured\` result that cannot be sent as JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  // valibot's object schemas take an array for an object; MCP's structuredContent is a JSON object.
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return {
      problem: `answered a \`structured\` result that is ${json === null ? "null" : Array.isArray(json) ? "an array" : `a ${typeof json}`}, not a JSON object`,
    };
  }
  const parsed = v.safeParse(tool.output as v.GenericSchema, json);
  if (parsed.success) return { json: json as Record<string, unknown> };
  const shown = parsed.issues.slice(0, maxIssuesShown).map(describeIssue);
  const more = parsed.issues.length - shown.length;
  return {
    problem: `answered a \`structured\` result that does not match its output schema: ${shown.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`,
  };
}
