import type { ToolResult } from "@runbound/tool-kit";

/** The default cap on a result's text, in bytes (DESIGN §5). */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 16 * 1024;

function cutToBytes(text: string, bytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= bytes) return text;
  // Decoding a cut buffer may end in a broken character; drop the replacement char it leaves.
  return buffer
    .subarray(0, bytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
}

/**
 * Bound a result's text to `limitBytes`. Text beyond the budget is cut and a last line says how much
 * was shown and how to get the rest; images pass through.
 */
export function capOutput(result: ToolResult, limitBytes: number): ToolResult {
  const total = result.content.reduce(
    (sum, part) => sum + (part.type === "text" ? Buffer.byteLength(part.text) : 0),
    0,
  );
  if (total <= limitBytes) return result;
  const note = (shown: number): string =>
    `[Output truncated: showed ${shown} of ${total} bytes. Narrow the request (a smaller path, range or max_results) to see the rest.]`;
  // The note counts toward the limit too, so the whole result stays within it (DESIGN §5).
  const budget = Math.max(0, limitBytes - Buffer.byteLength(note(limitBytes)));
  let remaining = budget;
  const content: ToolResult["content"] = [];
  for (const part of result.content) {
    if (part.type !== "text") {
      content.push(part);
      continue;
    }
    if (remaining <= 0) continue;
    const text = cutToBytes(part.text, remaining);
    remaining -= Buffer.byteLength(text);
    content.push({ type: "text", text });
  }
  content.push({ type: "text", text: note(budget - remaining) });
  return { ...result, content };
}
