import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineReader } from "./line-reader.js";

const never = new AbortController().signal;

describe("LineReader", () => {
  it("reads line by line across chunks, drops a carriage return, and keeps a UTF-8 character split between chunks", async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const first = reader.readLine(never);
    input.write("fir");
    input.write("st\r\nsecond\nthi");
    expect(await first).toEqual({ kind: "line", text: "first" });
    expect(await reader.readLine(never)).toEqual({ kind: "line", text: "second" });
    const euro = Buffer.from("€\n");
    const third = reader.readLine(never);
    input.write(euro.subarray(0, 1));
    input.write(euro.subarray(1));
    expect(await third).toEqual({ kind: "line", text: "thi€" });
  });

  it("pauses the stream between reads and listens to nothing then", async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const read = reader.readLine(never);
    expect(input.isPaused()).toBe(false);
    input.write("one\n");
    await read;
    expect(input.isPaused()).toBe(true);
    expect(input.listenerCount("data")).toBe(0);
    expect(input.listenerCount("end")).toBe(0);
  });

  it("answers a last line without newline, then the end, and counts as ended only once all is read", async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const read = reader.readLine(never);
    input.end("last");
    expect(await read).toEqual({ kind: "line", text: "last" });
    expect(reader.ended).toBe(true);
    expect(await reader.readLine(never)).toEqual({ kind: "end" });
    const empty = new PassThrough();
    const emptyReader = new LineReader(empty);
    const nothing = emptyReader.readLine(never);
    empty.end();
    expect(await nothing).toEqual({ kind: "end" });
  });

  it("keeps lines read ahead for the next reads, so the reader is not ended while any is left", async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const read = reader.readLine(never);
    input.end("a\nb\n");
    expect(await read).toEqual({ kind: "line", text: "a" });
    expect(reader.ended).toBe(false);
    expect(await reader.readLine(never)).toEqual({ kind: "line", text: "b" });
  });

  it("stops at once when the signal aborts, before or during a read", async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const controller = new AbortController();
    const read = reader.readLine(controller.signal);
    controller.abort();
    expect(await read).toEqual({ kind: "aborted" });
    expect(input.isPaused()).toBe(true);
    expect(input.listenerCount("data")).toBe(0);
    expect(await reader.readLine(controller.signal)).toEqual({ kind: "aborted" });
  });

  it("takes a stream error as the end of input", async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const read = reader.readLine(never);
    input.destroy(new Error("EIO"));
    expect(await read).toEqual({ kind: "end" });
    expect(reader.ended).toBe(true);
  });
});
