import { ToolError } from "@runbound/tool-kit";
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { untilAborted } from "./until-aborted.js";

const label = "Starting language server `typescript` for `.`";
const messages = {
  timeout: `${label} took longer than this call's budget; it goes on in the background. Call again in a moment, or check \`lsp\` \`status\`.`,
  cancelled: `${label} was still going on when this call was cancelled; it goes on in the background.`,
};

/** Work that settles only when the test says so, and tells whether it has. */
function pendingWork<T>(): { work: Promise<T>; finish: (value: T) => void; fail: (error: Error) => void } {
  let finish!: (value: T) => void;
  let fail!: (error: Error) => void;
  const work = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { work, finish, fail };
}

describe("untilAborted", () => {
  it("answers with the work's value, and leaves no listener on the signal", async () => {
    const controller = new AbortController();
    await expect(untilAborted(Promise.resolve(42), controller.signal, messages)).resolves.toBe(42);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("passes the work's own failure on, and leaves no listener on the signal", async () => {
    const controller = new AbortController();
    const failure = new Error("the server exited during initialize");
    await expect(untilAborted(Promise.reject(failure), controller.signal, messages)).rejects.toBe(failure);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("rejects at once with `timeout` when the signal had already timed out, even though the work would answer", async () => {
    const signal = AbortSignal.abort(new DOMException("The operation timed out.", "TimeoutError"));
    const error = await untilAborted(
      new Promise((resolve) => setTimeout(() => resolve("late"), 20)),
      signal,
      messages,
    ).catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "timeout",
      message:
        "Starting language server `typescript` for `.` took longer than this call's budget; it goes on in the background. Call again in a moment, or check `lsp` `status`.",
    });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("rejects with `cancelled` when the signal aborts during the work, which goes on and can still answer another caller", async () => {
    const controller = new AbortController();
    const { work, finish } = pendingWork<string>();
    const waiting = untilAborted(work, controller.signal, messages);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({
      code: "cancelled",
      message:
        "Starting language server `typescript` for `.` was still going on when this call was cancelled; it goes on in the background.",
    });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    finish("started");
    await expect(work).resolves.toBe("started");
    await expect(untilAborted(work, new AbortController().signal, messages)).resolves.toBe("started");
  });

  it("rejects with `timeout` when the deadline passes during the work", async () => {
    const controller = new AbortController();
    const { work, fail } = pendingWork<string>();
    const waiting = untilAborted(work, controller.signal, messages);
    controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
    await expect(waiting).rejects.toMatchObject({ code: "timeout" });
    // The work failing later is the shared start's business, not an unhandled rejection here.
    fail(new Error("the server crashed later"));
    await expect(work).rejects.toThrow("crashed later");
  });

  it("answers with the signal's own ToolError when it aborted with one (a host's budget)", async () => {
    const reason = new ToolError({
      code: "timeout",
      message: "Tool `lsp` did not finish within 5 ms and was stopped.",
    });
    await expect(untilAborted(new Promise(() => undefined), AbortSignal.abort(reason), messages)).rejects.toBe(reason);
  });

  it("keeps waiting on work that outlives other calls' signals", async () => {
    const { work, finish } = pendingWork<number>();
    const impatient = new AbortController();
    const patient = new AbortController();
    const first = untilAborted(work, impatient.signal, messages);
    const second = untilAborted(work, patient.signal, messages);
    impatient.abort();
    await expect(first).rejects.toMatchObject({ code: "cancelled" });
    finish(7);
    await expect(second).resolves.toBe(7);
  });
});
