import { describe, expect, it, vi } from "vitest";
import { withBudget } from "./with-budget.js";

describe("withBudget", () => {
  it("does not start work whose signal was aborted before it began", async () => {
    const controller = new AbortController();
    controller.abort();
    const work = vi.fn(async () => "ran");
    await expect(withBudget(work, { timeoutMs: 1_000, signal: controller.signal, label: "Work" }).result).rejects.toThrow("Work was cancelled before it finished.");
    expect(work).not.toHaveBeenCalled();
  });

  it("answers at the timeout and aborts the work's own signal", async () => {
    let seen: AbortSignal | undefined;
    const budget = withBudget(
      (signal) => {
        seen = signal;
        return new Promise(() => undefined);
      },
      { timeoutMs: 20, signal: new AbortController().signal, label: "Work" },
    );
    await expect(budget.result).rejects.toThrow("Work did not finish within 20 ms and was stopped.");
    expect(seen?.aborted).toBe(true);
  });

  it("keeps a budget longer than Node's longest timer (or Infinity) from firing at once", async () => {
    for (const timeoutMs of [2 ** 31, Number.POSITIVE_INFINITY]) {
      const work = new Promise<string>((resolve) => setTimeout(() => resolve("done"), 20));
      await expect(withBudget(() => work, { timeoutMs, signal: new AbortController().signal, label: "Work" }).result).resolves.toBe("done");
    }
  });

  it("returns the work's value when it finishes in time", async () => {
    await expect(withBudget(async () => 42, { timeoutMs: 1_000, signal: new AbortController().signal, label: "Work" }).result).resolves.toBe(42);
  });
});
