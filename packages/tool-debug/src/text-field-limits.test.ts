import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { assertTextFields, MAX_TEXT_LENGTH } from "./text-field-limits.js";

function refusal(fields: Parameters<typeof assertTextFields>[0]): string {
  try {
    assertTextFields(fields);
  } catch (error) {
    expect(ToolError.isInstance(error) && error.code).toBe("invalid_input");
    return (error as Error).message;
  }
  throw new Error("accepted");
}

describe("assertTextFields", () => {
  it("accepts text up to the limit, an empty argument and absent fields", () => {
    expect(() =>
      assertTextFields({ program: "a".repeat(MAX_TEXT_LENGTH), args: ["", "x"], file: "app.py" }),
    ).not.toThrow();
    expect(() => assertTextFields({})).not.toThrow();
  });

  it("refuses an empty path or expression, naming the field", () => {
    expect(refusal({ program: "" })).toBe(
      "`program` is empty. Give it a value, or leave the field out for an op that does not need it.",
    );
    expect(refusal({ file: "" })).toContain("`file` is empty.");
    expect(refusal({ expression: "" })).toContain("`expression` is empty.");
  });

  it("refuses a field one character over the limit, naming its length and the argument's index", () => {
    expect(refusal({ expression: "x".repeat(MAX_TEXT_LENGTH + 1) })).toBe(
      `\`expression\` is ${MAX_TEXT_LENGTH + 1} characters long; the limit is ${MAX_TEXT_LENGTH} characters. Shorten it.`,
    );
    expect(refusal({ args: ["ok", "y".repeat(MAX_TEXT_LENGTH + 1)] })).toContain("`args[1]` is");
    expect(refusal({ program: "p".repeat(MAX_TEXT_LENGTH + 1) })).toContain("`program` is");
  });
});
