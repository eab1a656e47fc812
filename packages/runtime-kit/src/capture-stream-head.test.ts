import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { captureStreamHead } from "./capture-stream-head.js";

async function captured(chunks: readonly string[], maxBytes: number) {
  const stream = new PassThrough();
  const head = captureStreamHead(stream, maxBytes);
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await head.ended;
  return { text: head.text(), cut: head.cut };
}

describe("captureStreamHead", () => {
  it("keeps everything up to exactly the cap, uncut", async () => {
    expect(await captured(["abc", "de"], 5)).toEqual({ text: "abcde", cut: false });
  });

  it("keeps the head when a chunk crosses the cap, and drops later chunks", async () => {
    expect(await captured(["abc", "def", "ghi"], 4)).toEqual({ text: "abcd", cut: true });
    expect(await captured(["abcd", "e"], 4)).toEqual({ text: "abcd", cut: true });
  });

  it("decodes UTF-8 only once the bytes are joined, so a character split across chunks survives", async () => {
    const stream = new PassThrough();
    const head = captureStreamHead(stream, 100);
    const bytes = Buffer.from("名前");
    stream.write(bytes.subarray(0, 2));
    stream.end(bytes.subarray(2));
    await head.ended;
    expect(head.text()).toBe("名前");
  });

  it("settles when the stream ends without closing, closes without ending, or fails", async () => {
    const unclosed = new PassThrough({ emitClose: false });
    const ending = captureStreamHead(unclosed, 10);
    unclosed.end("done");
    await ending.ended;
    expect(ending.text()).toBe("done");
    const closed = new PassThrough();
    const closing = captureStreamHead(closed, 10);
    closed.destroy();
    await closing.ended;
    const failed = new PassThrough();
    const failing = captureStreamHead(failed, 10);
    failed.on("error", () => undefined);
    failed.destroy(new Error("broken pipe"));
    await failing.ended;
    // Only "error" fires for a stream destroyed with emitClose off.
    const silent = new PassThrough({ emitClose: false });
    const erring = captureStreamHead(silent, 10);
    silent.on("error", () => undefined);
    silent.destroy(new Error("broken pipe"));
    await erring.ended;
    expect(erring.text()).toBe("");
  });
});
