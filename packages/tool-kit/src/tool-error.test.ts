import { describe, expect, it } from "vitest";
import { errorResult, resultErrorCode } from "./error-result.js";
import { ToolError } from "./tool-error.js";

describe("ToolError", () => {
  it("is recognised through the Symbol.for marker, also from another copy", () => {
    const error = new ToolError({ code: "not_found", message: "File `a.ts` does not exist." });
    expect(ToolError.isInstance(error)).toBe(true);
    // A copy of tool-kit installed twice creates its own class but the same global symbol.
    const foreign = Object.assign(new Error("x"), { code: "denied", [Symbol.for("runbound.tool-kit.error")]: true });
    expect(ToolError.isInstance(foreign)).toBe(true);
    expect(ToolError.isInstance(new Error("plain"))).toBe(false);
    expect(ToolError.isInstance({ code: "denied" })).toBe(false);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a string", "denied"],
    ["a marked object without a code", { [Symbol.for("runbound.tool-kit.error")]: true }],
    ["a marked object with a numeric code", { code: 403, [Symbol.for("runbound.tool-kit.error")]: true }],
    ["an object whose marker is not `true`", { code: "denied", [Symbol.for("runbound.tool-kit.error")]: "yes" }],
    ["an object marked under another name", { code: "denied", [Symbol.for("")]: true }],
  ])("does not take %s for a ToolError", (_label, value) => {
    expect(ToolError.isInstance(value)).toBe(false);
  });

  it("shows its class name, code and message, and no cause when none was given", () => {
    const error = new ToolError({ code: "not_found", message: "File `a.ts` does not exist." });
    expect(String(error)).toBe("ToolError: File `a.ts` does not exist.");
    expect(error.code).toBe("not_found");
    expect(Object.hasOwn(error, "cause")).toBe(false);
    expect(error).toBeInstanceOf(Error);
  });

  it("keeps the cause", () => {
    const cause = new Error("root");
    expect(new ToolError({ code: "internal", message: "Wrapped.", cause }).cause).toBe(cause);
  });
});

describe("errorResult", () => {
  it("keeps a ToolError's code and message", () => {
    const result = errorResult(new ToolError({ code: "conflict", message: "File `a` changed." }), "resolve");
    expect(result.isError).toBe(true);
    expect(resultErrorCode(result)).toBe("conflict");
    expect(result.content[0]).toEqual({ type: "text", text: "Error (conflict): File `a` changed." });
  });

  it("turns an unexpected exception into internal, naming the tool", () => {
    const result = errorResult(new TypeError("x is undefined"), "lsp");
    expect(resultErrorCode(result)).toBe("internal");
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: "Error (internal): Tool `lsp` failed unexpectedly: x is undefined. This is a bug in the tool; try another approach.",
        },
      ],
      structured: {
        error: {
          code: "internal",
          message: "Tool `lsp` failed unexpectedly: x is undefined. This is a bug in the tool; try another approach.",
        },
      },
    });
  });

  it.each([
    ["a value without a string form", Object.create(null), "a value that cannot be shown as text"],
    [
      "an error whose message cannot be read",
      Object.defineProperty(new Error(), "message", {
        get: () => {
          throw new Error("no");
        },
      }),
      "a value that cannot be shown as text",
    ],
    ["a huge message", new Error("x".repeat(100_000)), `${"x".repeat(500)}… (100000 characters)`],
  ])("turns %s into a short internal error without throwing", (_label, thrown, shown) => {
    expect(errorResult(thrown, "eval").structured).toEqual({
      error: {
        code: "internal",
        message: `Tool \`eval\` failed unexpectedly: ${shown}. This is a bug in the tool; try another approach.`,
      },
    });
  });

  it("names a thrown non-error value as text", () => {
    expect(errorResult("disk on fire", "write").content[0]).toEqual({
      type: "text",
      text: "Error (internal): Tool `write` failed unexpectedly: disk on fire. This is a bug in the tool; try another approach.",
    });
  });
});

describe("resultErrorCode", () => {
  it.each([
    ["a success", { content: [{ type: "text" as const, text: "ok" }] }],
    ["a success that carries an error-shaped twin", { content: [], structured: { error: { code: "conflict" } } }],
    ["an error without a code", { isError: true, content: [], structured: { error: { message: "x" } } }],
    ["an error with a numeric code", { isError: true, content: [], structured: { error: { code: 5 } } }],
  ])("is undefined for %s", (_label, result) => {
    expect(resultErrorCode(result)).toBeUndefined();
  });
});
