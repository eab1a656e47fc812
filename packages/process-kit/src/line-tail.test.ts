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

  it("refuses a limit below 1", () => {
    expect(() => new LineTail(0)).toThrow(/`0`/);
    expect(() => new LineTail(1.5)).toThrow(/`1.5`/);
  });
});
