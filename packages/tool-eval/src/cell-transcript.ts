import type { ImageContent, ToolContent } from "@runbound/tool-kit";
import type { CellOutput } from "./kernel.js";

/** Limits of what one cell's answer holds. */
export interface CellTranscriptLimits {
  /** Characters of stdout/stderr kept from the start of the cell. */
  streamHeadChars: number;
  /** Characters of stdout/stderr kept from the end of the cell. */
  streamTailChars: number;
  /** Images kept; later ones are counted, not shown. */
  maxImages: number;
  /** Base64 characters of images kept in all. */
  maxImageChars: number;
  /** Bytes (UTF-8) of text in the whole answer. */
  maxTextBytes: number;
}

/** The defaults: an answer stays within 16 000 bytes of text. */
export const DEFAULT_TRANSCRIPT_LIMITS: CellTranscriptLimits = {
  streamHeadChars: 6_000,
  streamTailChars: 6_000,
  maxImages: 8,
  maxImageChars: 4_000_000,
  maxTextBytes: 16_000,
};

type Part = { type: "text"; text: string } | ImageContent;

function plural(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

function omissionMarker(characters: number, lines: number): string {
  return `\n[… ${plural(characters, "character")} (${plural(lines, "line")}) of output omitted; print less, or write it to a file and read parts of it …]\n`;
}

function countLines(text: string): number {
  let lines = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lines += 1;
  return lines;
}

function outputText(output: Exclude<CellOutput, { type: "image" }>): string {
  if (output.type === "error")
    return output.traceback.trim() === "" ? `${output.name}: ${output.message}\n` : output.traceback;
  return output.type === "stream" ? output.text : output.text.endsWith("\n") ? output.text : `${output.text}\n`;
}

/**
 * The outputs of one cell in order, bounded while they arrive (a runaway print never fills memory):
 * stdout/stderr keep their head and tail with an explicit omission marker between; images are capped
 * in count and size; `parts` caps the whole text once more.
 */
export class CellTranscript {
  private readonly head: Part[] = [];
  private readonly tail: Part[] = [];
  private headLeft: number;
  private tailChars = 0;
  private omittedChars = 0;
  private omittedLines = 0;
  private images = 0;
  private imageChars = 0;
  private droppedImages = 0;
  private readonly streamParts = new WeakSet<Part>();

  constructor(private readonly limits: CellTranscriptLimits = DEFAULT_TRANSCRIPT_LIMITS) {
    this.headLeft = limits.streamHeadChars;
  }

  /** Take one output as the kernel sends it. */
  add(output: CellOutput): void {
    if (output.type === "image") {
      if (this.images >= this.limits.maxImages || this.imageChars + output.data.length > this.limits.maxImageChars) {
        this.droppedImages += 1;
        return;
      }
      this.images += 1;
      this.imageChars += output.data.length;
      this.place({ type: "image", data: output.data, mimeType: output.mimeType });
      return;
    }
    const text = outputText(output);
    if (output.type !== "stream") {
      this.place({ type: "text", text });
      return;
    }
    if (this.headLeft > 0) {
      const kept = text.slice(0, this.headLeft);
      this.headLeft -= kept.length;
      this.head.push({ type: "text", text: kept });
      if (kept.length === text.length) return;
      this.addToTail(text.slice(kept.length));
      return;
    }
    this.addToTail(text);
  }

  private place(part: Part): void {
    (this.headLeft > 0 ? this.head : this.tail).push(part);
  }

  // Stream text past the head goes to the tail, whose oldest stream text is dropped (and counted)
  // to stay within its budget; the other outputs there stay.
  private addToTail(text: string): void {
    const part: Part = { type: "text", text };
    this.streamParts.add(part);
    this.tail.push(part);
    this.tailChars += text.length;
    let excess = this.tailChars - this.limits.streamTailChars;
    for (let index = 0; excess > 0 && index < this.tail.length; index += 1) {
      const part = this.tail[index]!;
      if (part.type !== "text" || !this.streamParts.has(part)) continue;
      const cut = Math.min(excess, part.text.length);
      const dropped = part.text.slice(0, cut);
      this.omittedChars += cut;
      this.omittedLines += countLines(dropped);
      part.text = part.text.slice(cut);
      this.tailChars -= cut;
      excess -= cut;
    }
  }

  /** The answer's content: text and images in the cell's order, `before` and `after` notes around them. */
  parts(before: readonly string[] = [], after: readonly string[] = []): ToolContent[] {
    const middle =
      this.omittedChars > 0
        ? [{ type: "text", text: omissionMarker(this.omittedChars, this.omittedLines) } as Part]
        : [];
    const notes =
      this.droppedImages > 0
        ? [
            `[${plural(this.droppedImages, "more image")} not shown: at most ${this.limits.maxImages} per answer; save them to files instead]`,
          ]
        : [];
    const sequence: Part[] = [
      ...before.map((text): Part => ({ type: "text", text: `${text}\n` })),
      ...this.head,
      ...middle,
      ...this.tail,
      ...[...notes, ...after].map((text): Part => ({ type: "text", text: `${text}\n` })),
    ];
    return mergeText(
      capText(
        sequence.filter((part) => part.type !== "text" || part.text !== ""),
        this.limits.maxTextBytes,
      ),
    );
  }
}

function mergeText(parts: Part[]): ToolContent[] {
  const merged: ToolContent[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (part.type === "text" && last?.type === "text") last.text += part.text;
    else merged.push(part.type === "text" ? { type: "text", text: part.text } : part);
  }
  if (merged.length === 0) merged.push({ type: "text", text: "(no output)" });
  for (const part of merged) if (part.type === "text") part.text = part.text.replace(/\n+$/, "") || part.text;
  return merged;
}

function headAndTail(text: string, keep: number): string {
  const half = Math.floor(keep / 2);
  const cut = text.slice(half, text.length - half);
  return text.slice(0, half) + omissionMarker(cut.length, countLines(cut)) + text.slice(text.length - half);
}

// The whole answer's text within `maxBytes` of UTF-8: the longest text is cut in its middle until it fits.
function capText(parts: Part[], maxBytes: number): Part[] {
  const capped = parts.map((part) => ({ ...part }));
  const texts = capped.filter((part): part is Part & { type: "text" } => part.type === "text");
  let total = texts.reduce((sum, part) => sum + Buffer.byteLength(part.text), 0);
  while (total > maxBytes) {
    const sizes = texts.map((part) => Buffer.byteLength(part.text));
    const index = sizes.indexOf(Math.max(...sizes));
    const longest = texts[index]!;
    const size = sizes[index]!;
    // The marker itself takes about 130 bytes; keep at least a little of the longest text.
    const target = Math.max(200, size - (total - maxBytes) - 200);
    const shorter = headAndTail(longest.text, Math.floor((longest.text.length * target) / size));
    const shorterSize = Buffer.byteLength(shorter);
    if (shorterSize >= size) break;
    total -= size - shorterSize;
    longest.text = shorter;
  }
  return capped;
}
