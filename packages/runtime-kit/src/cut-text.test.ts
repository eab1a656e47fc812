import { describe, expect, it } from "vitest";
import { cutText, headOf, joinWithinBudget, tailOf } from "./cut-text.js";

describe("headOf and tailOf", () => {
  it("keep text that fits as it is", () => {
    expect(headOf("abc", 3)).toBe("abc");
    expect(tailOf("abc", 3)).toBe("abc");
  });

  it("keep the start or the end and mark the cut", () => {
    expect(headOf("abcdef", 4)).toBe("abcd…");
    expect(tailOf("abcdef", 4)).toBe("…cdef");
  });

  it("never split a surrogate pair", () => {
    expect(headOf("ab😀cd", 3)).toBe("ab…");
    expect(headOf("a😀cd", 3)).toBe("a😀…");
    expect(tailOf("ab😀cd", 3)).toBe("…cd");
    expect(tailOf("ab😀c", 3)).toBe("…😀c");
  });
});

describe("cutText", () => {
  it("cuts at the limit and counts what was cut", () => {
    expect(cutText("abcdef", 6)).toEqual({ text: "abcdef", cut: 0 });
    expect(cutText("abcdef", 4)).toEqual({ text: "abcd…", cut: 2 });
  });

  it("never splits a surrogate pair, and counts the half it kept out as cut", () => {
    expect(cutText("ab😀cd", 3)).toEqual({ text: "ab…", cut: 4 });
    expect(cutText("a😀cd", 3)).toEqual({ text: "a😀…", cut: 2 });
    expect(cutText("😀", 1)).toEqual({ text: "…", cut: 2 });
  });
});

describe("joinWithinBudget", () => {
  it("joins rows while they fit the budget, newline included", () => {
    expect(joinWithinBudget(["aaa", "bbb", "ccc"], 8)).toEqual({ text: "aaa\nbbb", shown: 2 });
    expect(joinWithinBudget(["aaa", "bbb"], 7)).toEqual({ text: "aaa", shown: 1 });
    expect(joinWithinBudget(["aaaa"], 4)).toEqual({ text: "", shown: 0 });
  });
});
