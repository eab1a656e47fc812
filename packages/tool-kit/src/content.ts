/** Text shown to the model. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image shown to the model, base64-encoded. */
export interface ImageContent {
  type: "image";
  /** Base64 data without a `data:` prefix. */
  data: string;
  /** For example `image/png`. */
  mimeType: string;
}

/** One piece of a result. Maps 1:1 onto MCP content and Anthropic `tool_result` content. */
export type ToolContent = TextContent | ImageContent;

/**
 * What a tool call answers. Over MCP, `content` and `isError` become those of `CallToolResult` as they
 * are, and `structured` becomes `structuredContent` when the tool declares an `output` schema (checked
 * against it first).
 */
export interface ToolResult {
  /** What the model reads. */
  content: ToolContent[];
  /** True when the call failed; the text says why and how to recover. */
  isError?: boolean;
  /**
   * Machine-readable data for hosts (never required to understand the text): a JSON object. A tool
   * that declares an `output` schema must answer one matching it on every successful call.
   */
  structured?: Record<string, unknown>;
}

/** A tool may answer with plain text; the host turns it into a {@link ToolResult}. */
export type ToolOutput = string | ToolResult;

/** A result holding one text. */
export function textResult(text: string, structured?: Record<string, unknown>): ToolResult {
  return structured === undefined
    ? { content: [{ type: "text", text }] }
    : { content: [{ type: "text", text }], structured };
}

/** Turn a tool's output into a {@link ToolResult}. */
export function toToolResult(output: ToolOutput): ToolResult {
  return typeof output === "string" ? textResult(output) : output;
}

/** All text parts of a result, joined by newlines (images are left out). */
export function resultText(result: ToolResult): string {
  return result.content
    .filter((part): part is TextContent => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}
