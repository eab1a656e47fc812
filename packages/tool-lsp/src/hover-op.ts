import { HoverRequest, type MarkedString, type MarkupContent } from "vscode-languageserver-protocol";
import type { OpAnswer, PositionedRequest } from "./op-types.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";
import { requireCapability } from "./require-capability.js";

const maxHoverBytes = 6 * 1024;

function part(content: MarkupContent | MarkedString): string {
  if (typeof content === "string") return content;
  if (content !== null && typeof content === "object" && typeof content.value === "string") {
    return "language" in content && typeof content.language === "string"
      ? `\`\`\`${content.language}\n${content.value}\n\`\`\``
      : content.value;
  }
  return "";
}

/** The text of a Hover's `contents` (MarkupContent, MarkedString or an array of them); "" for anything else. */
export function hoverText(contents: unknown): string {
  const parts = Array.isArray(contents) ? contents : [contents];
  return parts
    .map((item) => part(item as MarkupContent | MarkedString))
    .filter((text) => text.trim().length > 0)
    .join("\n\n")
    .trim();
}

/** Answer `hover`: the signature and doc comment the server shows for the symbol. */
export async function hoverOp(request: PositionedRequest, signal: AbortSignal): Promise<OpAnswer> {
  const session = request.document.session;
  requireCapability(session, "hoverProvider", HoverRequest.method);
  const hover = await session.request(
    HoverRequest.method,
    (connection, token) => connection.sendRequest(HoverRequest.type, request.params, token),
    signal,
  );
  const text = hover === null || typeof hover !== "object" ? "" : hoverText(hover.contents);
  const target = `\`${request.symbol}\` at ${request.document.shown}:${request.line}`;
  if (text.length === 0)
    return {
      text: emptyAnswer(session, `No hover information for ${target}`),
      structured: { op: "hover", hover: null },
    };
  const bounded =
    Buffer.byteLength(text) > maxHoverBytes
      ? `${Buffer.from(text)
          .subarray(0, maxHoverBytes)
          .toString("utf8")
          .replace(/\uFFFD$/, "")}\n… (cut at ${maxHoverBytes} bytes)`
      : text;
  return {
    text: `${partialNote(session)}Hover for ${target}:\n${bounded}`,
    structured: { op: "hover", hover: bounded },
  };
}
