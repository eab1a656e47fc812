import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { requestErrorAsToolError } from "./adapter-request-error.js";
import { DapNoAnswer, DapRequestFailed } from "./dap-connection.js";

const asToolError = (error: unknown): ToolError => {
  const mapped = requestErrorAsToolError(error);
  expect(mapped).toBeInstanceOf(ToolError);
  return mapped as ToolError;
};

describe("requestErrorAsToolError", () => {
  it("turns an adapter's refusal into invalid_input with its message and the way out for that request", () => {
    const evaluate = asToolError(new DapRequestFailed("evaluate", "  name 'nope' is not defined\n"));
    expect(evaluate.code).toBe("invalid_input");
    expect(evaluate.message).toBe(
      "The debug adapter refused `evaluate`: name 'nope' is not defined Check the expression: it is evaluated in the program's language in the frame `frame_id` names (default the top frame; op `stack` lists the frames and their variables).",
    );
    expect(asToolError(new DapRequestFailed("variables", "bad reference")).message).toContain(
      "references last only until the program runs again",
    );
    expect(asToolError(new DapRequestFailed("scopes", "bad frame")).message).toContain(
      "Pass a frame_id from the latest `stack` answer",
    );
    expect(asToolError(new DapRequestFailed("stackTrace", "unknown goroutine 1")).message).toContain(
      "Pass a thread_id from op `threads`",
    );
    expect(asToolError(new DapRequestFailed("threads", "busy")).message).toBe(
      "The debug adapter refused `threads`: busy Check the op's arguments and the session's state (op `status`).",
    );
  });

  it("keeps the refused error as the cause", () => {
    const refusal = new DapRequestFailed("evaluate", "x");
    expect(asToolError(refusal).cause).toBe(refusal);
  });

  it("an unanswered request is a timeout, a closed connection unavailable, both saying what to do", () => {
    const timeout = asToolError(new DapNoAnswer("stackTrace", "timeout"));
    expect(timeout.code).toBe("timeout");
    expect(timeout.message).toBe(
      "The debug adapter did not answer `stackTrace` in time. Call op `status` to see the session's state, or `terminate` and launch again.",
    );
    expect(asToolError(new DapNoAnswer("next", "closed")).code).toBe("unavailable");
  });

  it("leaves other errors as they are", () => {
    const other = new ToolError({ code: "conflict", message: "busy" });
    expect(requestErrorAsToolError(other)).toBe(other);
    const plain = new Error("x");
    expect(requestErrorAsToolError(plain)).toBe(plain);
  });
});
