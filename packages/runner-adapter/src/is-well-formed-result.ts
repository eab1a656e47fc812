import type { ToolResult } from "@runbound/tool-kit";

/** Whether a tool's answer has the shape of a {@link ToolResult}; a plugin's bug must not reach a client. */
export function isWellFormedResult(value: unknown): value is ToolResult {
  if (typeof value !== "object" || value === null) return false;
  const { content, isError } = value as { content?: unknown; isError?: unknown };
  if (isError !== undefined && typeof isError !== "boolean") return false;
  return (
    Array.isArray(content) &&
    content.every((part: { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown }) =>
      part?.type === "text"
        ? typeof part.text === "string"
        : part?.type === "image" && typeof part.data === "string" && typeof part.mimeType === "string",
    )
  );
}
