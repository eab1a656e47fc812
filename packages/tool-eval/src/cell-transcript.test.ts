import type { ToolContent } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { CellTranscript, DEFAULT_TRANSCRIPT_LIMITS, type CellTranscriptLimits } from "./cell-transcript.js";

const small: CellTranscriptLimits = {
  streamHeadChars: 10,
  streamTailChars: 10,
  maxImages: 2,
  maxImageChars: 100,
  maxTextBytes: 1_000,
};

function text(parts: ToolContent[]): string {
  return parts.map((part) => (part.type === "text" ? part.text : `<image ${part.mimeType} ${part.data}>`)).join("|");
}

describe("CellTranscript", () => {
  it("keeps outputs in order, merging text and ending each non-stream output with a newline", () => {
    const transcript = new CellTranscript();
    transcript.add({ type: "stream", name: "stdout", text: "a" });
    transcript.add({ type: "stream", name: "stderr", text: "b\n" });
    transcript.add({ type: "display", mimeType: "text/markdown", text: "| t |" });
    transcript.add({ type: "image", mimeType: "image/png", data: "AAAA" });
    transcript.add({ type: "result", text: "42" });
    expect(transcript.parts(["[started]"], ["[note]"])).toEqual([
      { type: "text", text: "[started]\nab\n| t |" },
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "text", text: "42\n[note]" },
    ]);
  });

  it("shows an error's traceback, or its name and message when the traceback is empty", () => {
    const transcript = new CellTranscript();
    transcript.add({
      type: "error",
      name: "ValueError",
      message: "bad",
      traceback: "Traceback:\n  line 1\nValueError: bad\n",
    });
    transcript.add({ type: "error", name: "KeyboardInterrupt", message: "", traceback: "" });
    expect(text(transcript.parts())).toBe("Traceback:\n  line 1\nValueError: bad\nKeyboardInterrupt: ");
  });

  it("treats a blank traceback as none, and adds no second newline to a text that ends with one", () => {
    const transcript = new CellTranscript();
    transcript.add({ type: "error", name: "SystemExit", message: "3", traceback: "  \n" });
    transcript.add({ type: "display", mimeType: "text/plain", text: "shown\n" });
    transcript.add({ type: "stream", name: "stdout", text: "after" });
    expect(text(transcript.parts())).toBe("SystemExit: 3\nshown\nafter");
  });

  it("keeps a display written before the head filled ahead of the omission marker", () => {
    const transcript = new CellTranscript(small);
    transcript.add({ type: "display", mimeType: "text/plain", text: "first" });
    transcript.add({ type: "stream", name: "stdout", text: "x".repeat(40) });
    expect(text(transcript.parts())).toMatch(/^first\nx{10}\n\[… 20 characters/);
  });

  it("caps images by count alone", () => {
    const transcript = new CellTranscript({ ...small, maxImageChars: 1_000 });
    for (const data of ["a", "b", "c"]) transcript.add({ type: "image", mimeType: "image/png", data });
    expect(transcript.parts().filter((part) => part.type === "image")).toHaveLength(2);
  });

  it("says there was no output", () => {
    expect(new CellTranscript().parts()).toEqual([{ type: "text", text: "(no output)" }]);
  });

  it("keeps the head and the tail of a long stream with a marker counting what was left out", () => {
    const transcript = new CellTranscript(small);
    for (let line = 0; line < 10; line += 1) transcript.add({ type: "stream", name: "stdout", text: `line${line}\n` });
    // 60 characters: the first 10 and the last 10 are kept, 40 (and the 7 newlines among them) are not.
    expect(text(transcript.parts())).toBe(
      "line0\nline\n[… 40 characters (7 lines) of output omitted; print less, or write it to a file and read parts of it …]\nne8\nline9",
    );
  });

  it("keeps a display that came after the head, with the tail", () => {
    const transcript = new CellTranscript(small);
    transcript.add({ type: "stream", name: "stdout", text: "0123456789" });
    transcript.add({ type: "display", mimeType: "text/plain", text: "shown" });
    transcript.add({ type: "stream", name: "stdout", text: "abcdefghijKLMNOPQRST" });
    expect(text(transcript.parts())).toBe(
      "0123456789\n[… 10 characters (0 lines) of output omitted; print less, or write it to a file and read parts of it …]\nshown\nKLMNOPQRST",
    );
  });

  it("says one omitted character and one line in the singular", () => {
    const transcript = new CellTranscript({ ...small, streamHeadChars: 1, streamTailChars: 1 });
    transcript.add({ type: "stream", name: "stdout", text: "a\nb" });
    expect(text(transcript.parts())).toContain("[… 1 character (1 line) of output omitted");
  });

  it("caps images by count and by size, saying how many were left out", () => {
    const transcript = new CellTranscript(small);
    transcript.add({ type: "image", mimeType: "image/png", data: "x".repeat(60) });
    transcript.add({ type: "image", mimeType: "image/png", data: "y".repeat(50) });
    transcript.add({ type: "image", mimeType: "image/jpeg", data: "z".repeat(40) });
    transcript.add({ type: "image", mimeType: "image/png", data: "w" });
    const parts = transcript.parts();
    expect(
      parts.filter((part) => part.type === "image").map((part) => (part.type === "image" ? part.data[0] : "")),
    ).toEqual(["x", "z"]);
    expect(text(parts)).toContain("[2 more images not shown: at most 2 per answer; save them to files instead]");
  });

  it("says one more image in the singular", () => {
    const transcript = new CellTranscript({ ...small, maxImages: 0 });
    transcript.add({ type: "image", mimeType: "image/png", data: "x" });
    expect(text(transcript.parts())).toBe("[1 more image not shown: at most 0 per answer; save them to files instead]");
  });

  it("cuts the middle of a huge result so the whole answer stays within its text limit", () => {
    const transcript = new CellTranscript({ ...DEFAULT_TRANSCRIPT_LIMITS, maxTextBytes: 2_000 });
    transcript.add({ type: "stream", name: "stdout", text: "before\n" });
    transcript.add({ type: "result", text: `START${"m".repeat(10_000)}END` });
    const answer = text(transcript.parts());
    expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(2_000);
    expect(answer).toMatch(
      /^before\nSTARTm+\n\[… [\d,]+ characters \(0 lines\) of output omitted; print less, or write it to a file and read parts of it …\]\nm+END$/,
    );
  });

  it("counts the limit in UTF-8 bytes", () => {
    const transcript = new CellTranscript({ ...DEFAULT_TRANSCRIPT_LIMITS, maxTextBytes: 1_000 });
    transcript.add({ type: "result", text: "é".repeat(900) });
    const answer = text(transcript.parts());
    expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(1_000);
    expect(answer).toMatch(/^é+\n\[… [\d,]+ characters \(0 lines\) of output omitted/);
  });

  it("leaves an answer within the limit as it is", () => {
    const transcript = new CellTranscript({ ...DEFAULT_TRANSCRIPT_LIMITS, maxTextBytes: 11 });
    transcript.add({ type: "result", text: "0123456789" });
    expect(text(transcript.parts())).toBe("0123456789");
  });
});
