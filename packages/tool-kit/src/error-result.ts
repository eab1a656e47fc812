import type { ToolResult } from "./content.js";
import { shortenForMessage } from "./shorten-for-message.js";
import { ToolError } from "./tool-error.js";

const maxThrownTextLength = 500;

/** What was thrown, as short text; never throws itself, whatever the tool threw. */
function thrownText(error: unknown): string {
  try {
    return shortenForMessage(error instanceof Error ? String(error.message) : String(error), maxThrownTextLength);
  } catch {
    return "a value that cannot be shown as text";
  }
}

/**
 * Turn anything a tool threw into an `isError` result for the model: a {@link ToolError} keeps its
 * code and message; anything else becomes `internal`, so one broken tool never ends the run.
 */
export function errorResult(error: unknown, toolName: string): ToolResult {
  const toolError = ToolError.isInstance(error)
    ? error
    : new ToolError({
        code: "internal",
        message: `Tool \`${toolName}\` failed unexpectedly: ${thrownText(error)}. This is a bug in the tool; try another approach.`,
        cause: error,
      });
  return {
    isError: true,
    content: [{ type: "text", text: `Error (${toolError.code}): ${toolError.message}` }],
    structured: { error: { code: toolError.code, message: toolError.message } },
  };
}

/** The error code of an `isError` result made by {@link errorResult}, if any. */
export function resultErrorCode(result: ToolResult): string | undefined {
  const error = result.structured?.["error"] as { code?: unknown } | undefined;
  return result.isError === true && typeof error?.code === "string" ? error.code : undefined;
}
