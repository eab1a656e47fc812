import { describe, expect, it } from "vitest";
import { LineTail } from "./line-tail.js";

describe("LineTail", () => {
  it("keeps the last lines, joining lines split across chunks", () => {
    const tail = new LineTail(2);
    tail.push("first\nsec");
    tail.push("ond\r\nthird\n");
    expect(tail.snapshot()).toEqual(["second", "third"]);
  });

  it("includes an unfinished last line without keeping more than the limit", () => {
    const tail = new LineTail(2);
    tail.push("a\nb\nunfinished");
    expect(tail.snapshot()).toEqual(["b", "unfinished"]);
  });

  it("cuts long lines and a partial line that never ends", () => {
    const tail = new LineTail(3, 10);
    tail.push(`${"x".repeat(25)}\n`);
    tail.push("y".repeat(15));
    expect(tail.snapshot()).toEqual([`${"x".repeat(9)}…`, `${"y".repeat(9)}…`]);
  });

  it("keeps a line of exactly the maximum length whole, and cuts only longer ones", () => {
    const tail = new LineTail(3, 5);
    tail.push("abcde\n");
    tail.push("abcde");
    expect(tail.snapshot()).toEqual(["abcde", "abcde"]);
    tail.push("f\n");
    expect(tail.snapshot()).toEqual(["abcde", "abcd…"]);
  });

  it("never holds more than the limit, with or without an unfinished line", () => {
    const tail = new LineTail(1);
    tail.push("a\nb\nc\n");
    expect(tail.snapshot()).toEqual(["c"]);
    tail.push("d");
    expect(tail.snapshot()).toEqual(["d"]);
    const three = new LineTail(3);
    three.push("1\n2\n3\n4\n5\n");
    expect(three.snapshot()).toEqual(["3", "4", "5"]);
  });

  it("refuses a limit below 1", () => {
    expect(() => new LineTail(0)).toThrow(/`0`/);
    expect(() => new LineTail(1.5)).toThrow(/`1.5`/);
  });
});
