import { describe, expect, it } from "vitest";
import { abortedError } from "./aborted-error.js";
import { ToolError } from "./tool-error.js";

const messages = { timeout: "It ran out of time.", cancelled: "It was cancelled." };
const abortedWith = (reason?: unknown): AbortSignal => {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
};

describe("abortedError", () => {
  it("answers the host's own ToolError as it is", () => {
    const reason = new ToolError({ code: "timeout", message: "Tool `x` did not finish within 5 ms." });
    expect(abortedError(abortedWith(reason), messages)).toBe(reason);
  });

  it("answers a TimeoutError as timeout and any other reason as cancelled, keeping the reason as cause", () => {
    const timedOut = abortedError(abortedWith(new DOMException("late", "TimeoutError")), messages);
    expect([timedOut.code, timedOut.message]).toEqual(["timeout", "It ran out of time."]);
    const plain = abortedWith();
    const cancelled = abortedError(plain, messages);
    expect([cancelled.code, cancelled.message, cancelled.cause]).toEqual([
      "cancelled",
      "It was cancelled.",
      plain.reason,
    ]);
  });
});
