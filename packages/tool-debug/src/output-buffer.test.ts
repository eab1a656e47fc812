import { describe, expect, it } from "vitest";
import { OutputBuffer } from "./output-buffer.js";

describe("OutputBuffer", () => {
  it("keeps everything under its capacity, with CRLF normalised and stderr marked", () => {
    const buffer = new OutputBuffer(100);
    buffer.push("stdout", "one\r\ntwo\r\n");
    buffer.push("stderr", "bad\n");
    buffer.push("stdout", "");
    expect(buffer.tail(1_000)).toEqual({ text: "one\ntwo\n[stderr] bad\n", notShown: 0, dropped: 0, total: 12 });
  });

  it("drops the oldest characters past its capacity and counts them", () => {
    const buffer = new OutputBuffer(10);
    buffer.push("stdout", "abcdef");
    buffer.push("stdout", "ghijkl");
    expect(buffer.tail(1_000)).toEqual({ text: "cdefghijkl", notShown: 0, dropped: 2, total: 12 });
    buffer.push("stdout", "0123456789XY");
    expect(buffer.tail(1_000)).toEqual({ text: "23456789XY", notShown: 0, dropped: 14, total: 24 });
  });

  it("shows only the newest characters asked for and says how many are kept but not shown", () => {
    const buffer = new OutputBuffer(100);
    buffer.push("stdout", "first line\n");
    buffer.push("stdout", "second\n");
    expect(buffer.tail(4)).toEqual({ text: "ond\n", notShown: 14, dropped: 0, total: 18 });
    expect(buffer.tail(7)).toEqual({ text: "second\n", notShown: 11, dropped: 0, total: 18 });
  });

  it("cuts the oldest of the pieces it shows so the tail is exactly the limit", () => {
    const buffer = new OutputBuffer(100);
    buffer.push("stdout", "aaaa");
    buffer.push("stdout", "bbbb");
    expect(buffer.tail(6)).toEqual({ text: "aabbbb", notShown: 2, dropped: 0, total: 8 });
    expect(buffer.tail(9)).toEqual({ text: "aaaabbbb", notShown: 0, dropped: 0, total: 8 });
  });

  it("gives the output written since its last call once, the newest part of it when there is more", () => {
    const buffer = new OutputBuffer(100);
    buffer.push("stdout", "index=0\n");
    expect(buffer.unread(50)).toEqual({ text: "index=0\n", notShown: 0 });
    expect(buffer.unread(50)).toEqual({ text: "", notShown: 0 });
    buffer.push("stdout", "index=1\n");
    buffer.push("stdout", "index=2\n");
    expect(buffer.unread(8)).toEqual({ text: "index=2\n", notShown: 8 });
  });
});
