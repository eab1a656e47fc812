import type { ToolResult } from "./content.js";
import { ToolError } from "./tool-error.js";

/**
 * Turn anything a tool threw into an `isError` result for the model: a {@link ToolError} keeps its
 * code and message; anything else becomes `internal`, so one broken tool never ends the run.
 */
export function errorResult(error: unknown, toolName: string): ToolResult {
  const toolError = ToolError.isInstance(error)
    ? error
    : new ToolError({
        code: "internal",
        message: `Tool \`${toolName}\` failed unexpectedly: ${error instanceof Error ? error.message : String(error)}. This is a bug in the tool; try another approach.`,
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
