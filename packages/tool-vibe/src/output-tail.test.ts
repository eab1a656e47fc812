import { describe, expect, it } from "vitest";
import { OutputTail } from "./output-tail.js";

describe("OutputTail", () => {
  it("keeps everything up to the limit", () => {
    const tail = new OutputTail(5);
    tail.append("ab");
    tail.append("cde");
    expect([tail.value, tail.droppedChars]).toEqual(["abcde", 0]);
  });

  it("drops from the front and counts what it dropped", () => {
    const tail = new OutputTail(4);
    tail.append("abc");
    tail.append("def");
    tail.append("g");
    expect([tail.value, tail.droppedChars]).toEqual(["defg", 3]);
  });

  it("starts afresh on replace, keeping the end of a long text", () => {
    const tail = new OutputTail(3);
    tail.append("abcdef");
    tail.replace("xy");
    expect([tail.value, tail.droppedChars]).toEqual(["xy", 0]);
    tail.replace("123456");
    expect([tail.value, tail.droppedChars]).toEqual(["456", 3]);
  });

  it("refuses a limit that is not a whole number of at least 1", () => {
    expect(() => new OutputTail(0)).toThrow("`0`");
    expect(() => new OutputTail(2.5)).toThrow("whole number");
    expect(() => new OutputTail(1)).not.toThrow();
  });
});
