import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { checkedText } from "./checked-text.js";

function thrown(action: () => unknown): ToolError {
  try {
    action();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
  }
  throw new Error("expected a ToolError");
}

describe("checkedText", () => {
  it("returns text that is not blank and not too long", () => {
    expect(checkedText("label", "ab", 2, "a name")).toBe("ab");
  });

  it("refuses blank text, naming the field and what to give", () => {
    const error = thrown(() => checkedText("label", " \n", 10, "a short name"));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe("`label` is empty; give a short name.");
  });

  it("refuses text over the limit, saying both lengths", () => {
    const error = thrown(() => checkedText("brief", "abc", 2, "a task"));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("`brief` is 3 characters long; the most is 2.");
  });
});
