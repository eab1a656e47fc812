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
    expect(JSON.stringify(result.content)).toContain("Tool `lsp` failed unexpectedly: x is undefined");
  });
});
