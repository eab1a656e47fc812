import { describe, expect, it } from "vitest";
import { signalWithDeadline, withDeadline } from "./signal-with-deadline.js";

const gc = (globalThis as { gc?: () => void }).gc;

describe("signalWithDeadline", () => {
  it("aborts at the deadline even after a garbage collection (AbortSignal.any with a timeout does not on Node 20)", async () => {
    const deadline = signalWithDeadline(new AbortController().signal, 200);
    const fired = new Promise<string>((resolve) =>
      deadline.signal.addEventListener("abort", () => resolve((deadline.signal.reason as DOMException).name), {
        once: true,
      }),
    );
    // Allocate enough to make a collection likely even without --expose-gc.
    gc?.();
    for (let round = 0; round < 50; round++) new Array(100_000).fill(round);
    expect(await Promise.race([fired, new Promise((resolve) => setTimeout(() => resolve("never"), 3_000))])).toBe(
      "TimeoutError",
    );
    deadline.dispose();
  });

  it("follows the outer signal with its reason, and is released by dispose", async () => {
    const outer = new AbortController();
    const deadline = signalWithDeadline(outer.signal, 60_000);
    outer.abort(new Error("caller left"));
    expect((deadline.signal.reason as Error).message).toBe("caller left");
    deadline.dispose();
    const already = signalWithDeadline(outer.signal, 60_000);
    expect(already.signal.aborted).toBe(true);
    already.dispose();
  });

  it("withDeadline hands the work the signal and clears the timer when it settles", async () => {
    expect(await withDeadline(new AbortController().signal, 60_000, async (signal) => signal.aborted)).toBe(false);
  });
});
