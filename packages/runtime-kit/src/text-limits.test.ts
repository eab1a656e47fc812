import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { assertTextLength, checkedText, emptyText, textTooLong, textTooLongMessage } from "./text-limits.js";

function thrown(action: () => unknown): ToolError {
  try {
    action();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
  }
  throw new Error("expected a ToolError");
}

const advice = { whenEmpty: "Give a short name.", whenTooLong: "Shorten it." };

describe("text limits", () => {
  it("word an over-long field one way: the field, both lengths, the way out", () => {
    expect(textTooLongMessage("brief", 3, 2, "Shorten it.")).toBe(
      "`brief` is 3 characters long; the limit is 2 characters. Shorten it.",
    );
    const error = textTooLong("pattern", 5000, 4096, "Search for less.");
    expect([error.code, error.message]).toEqual([
      "invalid_input",
      "`pattern` is 5000 characters long; the limit is 4096 characters. Search for less.",
    ]);
    expect([emptyText("label", "Give a name.").code, emptyText("label", "Give a name.").message]).toEqual([
      "invalid_input",
      "`label` is empty. Give a name.",
    ]);
  });

  it("assertTextLength passes text at the limit and refuses one unit more", () => {
    expect(() => assertTextLength("code", "ab", 2, "Split it.")).not.toThrow();
    expect(thrown(() => assertTextLength("code", "abc", 2, "Split it.")).message).toBe(
      "`code` is 3 characters long; the limit is 2 characters. Split it.",
    );
  });

  it("checkedText returns text that is not blank and not too long", () => {
    expect(checkedText("label", "ab", 2, advice)).toBe("ab");
  });

  it("checkedText refuses blank text, naming the field and what to give", () => {
    const error = thrown(() => checkedText("label", " \n", 10, advice));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe("`label` is empty. Give a short name.");
  });

  it("checkedText refuses text over the limit, saying both lengths", () => {
    const error = thrown(() => checkedText("brief", "abc", 2, advice));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe("`brief` is 3 characters long; the limit is 2 characters. Shorten it.");
  });
});
