import { describe, expect, it } from "vitest";
import { cutText, joinWithinBudget } from "./bounded-text.js";

describe("bounded text", () => {
  it("cuts at the limit and counts what was cut", () => {
    expect(cutText("abcdef", 6)).toEqual({ text: "abcdef", cut: 0 });
    expect(cutText("abcdef", 4)).toEqual({ text: "abcd…", cut: 2 });
  });

  it("joins rows while they fit the budget, newline included", () => {
    expect(joinWithinBudget(["aaa", "bbb", "ccc"], 8)).toEqual({ text: "aaa\nbbb", shown: 2 });
    expect(joinWithinBudget(["aaa", "bbb"], 7)).toEqual({ text: "aaa", shown: 1 });
    expect(joinWithinBudget(["aaaa"], 4)).toEqual({ text: "", shown: 0 });
  });
});
