import type { ToolResult } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { capOutput, DEFAULT_OUTPUT_LIMIT_BYTES } from "./cap-output.js";

const textBytes = (result: ToolResult): number =>
  result.content.reduce((sum, part) => sum + (part.type === "text" ? Buffer.byteLength(part.text) : 0), 0);
const note = (shown: number, total: number): string =>
  `[Output truncated: showed ${shown} of ${total} bytes. Narrow the request (a smaller path, range or max_results) to see the rest.]`;

describe("capOutput", () => {
  it("is 16 KiB by default", () => {
    expect(DEFAULT_OUTPUT_LIMIT_BYTES).toBe(16_384);
  });

  it("returns a result at or under the limit as it is", () => {
    const result: ToolResult = { content: [{ type: "text", text: "x".repeat(100) }] };
    expect(capOutput(result, 100)).toBe(result);
  });

  it("cuts text over the limit so that the text and the note together fit, and says how much was shown of how much", () => {
    const result: ToolResult = {
      content: [
        { type: "text", text: "a".repeat(300) },
        { type: "text", text: "b".repeat(300) },
      ],
      isError: true,
      structured: { kept: true },
    };
    const capped = capOutput(result, 400);
    expect(textBytes(capped)).toBe(400);
    const shown = 400 - Buffer.byteLength(note(400, 600));
    expect(capped.content).toEqual([
      { type: "text", text: "a".repeat(shown) },
      { type: "text", text: note(shown, 600) },
    ]);
    expect(capped.isError).toBe(true);
    expect(capped.structured).toEqual({ kept: true });
  });

  it("spreads the budget over several parts in order, dropping those past it", () => {
    const capped = capOutput(
      {
        content: [
          { type: "text", text: "a".repeat(100) },
          { type: "text", text: "b".repeat(100) },
          { type: "text", text: "c".repeat(500) },
        ],
      },
      400,
    );
    const shown = 400 - Buffer.byteLength(note(400, 700));
    expect(capped.content.map((part) => (part.type === "text" ? part.text : ""))).toEqual([
      "a".repeat(100),
      "b".repeat(100),
      "c".repeat(shown - 200),
      note(shown, 700),
    ]);
  });

  it("passes images through without counting them", () => {
    const image = { type: "image" as const, data: "A".repeat(10_000), mimeType: "image/png" };
    expect(capOutput({ content: [image, { type: "text", text: "short" }] }, 100).content).toEqual([
      image,
      { type: "text", text: "short" },
    ]);
    const capped = capOutput({ content: [{ type: "text", text: "x".repeat(1_000) }, image] }, 300);
    expect(capped.content[1]).toBe(image);
    expect(textBytes(capped)).toBeLessThanOrEqual(300);
  });

  it("never cuts a character in half", () => {
    // "é" is two bytes in UTF-8: an odd budget lands inside one.
    const capped = capOutput({ content: [{ type: "text", text: "é".repeat(500) }] }, 301);
    const text = (capped.content[0] as { text: string }).text;
    expect(text).toMatch(/^é+$/);
    expect(textBytes(capped)).toBeLessThanOrEqual(301);
    expect((capped.content[1] as { text: string }).text).toBe(note(Buffer.byteLength(text), 1_000));
  });

  it("keeps a replacement character that is part of the text, cutting only one the cut made", () => {
    const capped = capOutput(
      {
        content: [
          { type: "text", text: "a\uFFFD" },
          { type: "text", text: `b\uFFFDc${"d".repeat(500)}` },
        ],
      },
      300,
    );
    expect((capped.content[0] as { text: string }).text).toBe("a\uFFFD");
    expect((capped.content[1] as { text: string }).text.startsWith("b\uFFFDc")).toBe(true);
  });

  it("keeps only the note when the limit is smaller than the note itself", () => {
    const capped = capOutput({ content: [{ type: "text", text: "x".repeat(200) }] }, 10);
    expect(capped.content).toEqual([{ type: "text", text: note(0, 200) }]);
  });
});
