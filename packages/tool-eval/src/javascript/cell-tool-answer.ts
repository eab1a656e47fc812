import { resultText, ToolError, type ImageContent, type ToolResult } from "@runbound/tool-kit";
import type { HostFrame } from "./kernel-frames.js";

/**
 * The kernel's answer to a cell's `await tool(name, input)`: a result resolves to
 * `{ text, images, structured? }`; a result with `isError` and a refused call (unknown tool, denied,
 * …) reject in the cell with an Error named `ToolError` (its `code` set when the run refused the call).
 */
export function cellToolAnswer(id: number, outcome: { result: ToolResult } | { error: unknown }): HostFrame {
  if ("error" in outcome) {
    const error = outcome.error;
    if (ToolError.isInstance(error))
      return { t: "tool_result", id, ok: false, error: { code: error.code, message: error.message } };
    return {
      t: "tool_result",
      id,
      ok: false,
      error: { code: "internal", message: error instanceof Error ? error.message : String(error) },
    };
  }
  const { content, isError, structured } = outcome.result;
  const text = resultText(outcome.result);
  if (isError === true) return { t: "tool_result", id, ok: false, error: { message: text } };
  const images = content
    .filter((part): part is ImageContent => part.type === "image")
    .map(({ data, mimeType }) => ({ data, mimeType }));
  return {
    t: "tool_result",
    id,
    ok: true,
    value: structured === undefined ? { text, images } : { text, images, structured },
  };
}
