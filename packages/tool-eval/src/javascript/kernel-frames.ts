import { splitFrameLine } from "../json-lines-channel.js";
import type { CellStatus } from "../kernel.js";

/**
 * The JavaScript kernel's protocol over its own pipes. The host's first line gives the kernel a secret
 * (`{ t: "channel", secret }`); the kernel writes one frame per line on stdout, each starting with the
 * ASCII record separator (U+001E), the secret and a space ({@link frameMarker}). Anything else there
 * came from a program a cell started with inherited stdio, or from a cell writing to fd 1 itself, and
 * is shown as that cell's stdout, never obeyed. The host writes one JSON object per line on the kernel's
 * stdin. `cell` is the id the host gave the running cell; 0 means no cell was running (output of a
 * timer or promise left behind by an earlier cell).
 */
export type KernelFrame =
  | { t: "ready"; node: string }
  | { t: "stream"; cell: number; name: "stdout" | "stderr"; text: string }
  | { t: "result"; cell: number; text: string }
  /** `stack` is raw: the host strips the kernel's own frames. */
  | { t: "error"; cell: number; name: string; message: string; stack: string }
  | { t: "tool"; cell: number; id: number; name: string; input: unknown }
  | { t: "done"; cell: number; status: CellStatus };

/** What the cell's `await tool(name, input)` resolves to. */
export interface CellToolValue {
  /** The text parts of the result, joined by newlines. */
  text: string;
  /** The image parts, base64 without a `data:` prefix. */
  images: Array<{ data: string; mimeType: string }>;
  /** The result's machine-readable data, when the tool gave any. */
  structured?: Record<string, unknown>;
}

/** Why `await tool(...)` rejects: the tool answered an error, or the run refused the call. */
export interface CellToolFailure {
  /** A ToolError's stable code (`denied`, `unknown_tool`, …); absent when the tool answered `isError`. */
  code?: string;
  message: string;
}

/** A frame the host sends. */
export type HostFrame =
  | { t: "channel"; secret: string }
  | { t: "execute"; cell: number; code: string }
  | { t: "interrupt"; cell: number }
  | { t: "tool_result"; id: number; ok: true; value: CellToolValue }
  | { t: "tool_result"; id: number; ok: false; error: CellToolFailure };

/** What starts every frame line of a kernel whose channel secret is `secret`. */
export function frameMarker(secret: string): string {
  // ASCII record separator; kernel-main.ts writes the same character (its program cannot import).
  return `\u001e${secret} `;
}

/**
 * One line of the kernel's stdout: the text before the frame (a program's output the frame was glued
 * to, or the whole line when it has no frame) and the frame.
 * @throws SyntaxError when the text after the marker is not JSON (a frame cut short).
 */
export function parseKernelLine(line: string, marker: string): { text: string; frame: KernelFrame | undefined } {
  const { foreign, frame } = splitFrameLine(line, marker);
  return { text: foreign, frame: frame === undefined ? undefined : (JSON.parse(frame) as KernelFrame) };
}

/** The line that carries `frame` to the kernel's stdin. */
export function encodeHostFrame(frame: HostFrame): string {
  return `${JSON.stringify(frame)}\n`;
}
