import { getEventListeners } from "node:events";
import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it, vi } from "vitest";
import { withBudget } from "./with-budget.js";

describe("withBudget", () => {
  it("does not start work whose signal was aborted before it began", async () => {
    const controller = new AbortController();
    controller.abort();
    const work = vi.fn(async () => "ran");
    await expect(
      withBudget(work, { timeoutMs: 1_000, signal: controller.signal, label: "Work" }).result,
    ).rejects.toThrow("Work was cancelled before it finished.");
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
      await expect(
        withBudget(() => work, { timeoutMs, signal: new AbortController().signal, label: "Work" }).result,
      ).resolves.toBe("done");
    }
  });

  it("returns the work's value when it finishes in time", async () => {
    await expect(
      withBudget(async () => 42, { timeoutMs: 1_000, signal: new AbortController().signal, label: "Work" }).result,
    ).resolves.toBe(42);
  });

  it("answers `cancelled` at once when the outer signal aborts mid-work, aborting the work's signal, while `settled` waits for the work", async () => {
    const outer = new AbortController();
    let seen: AbortSignal | undefined;
    let finish!: (value: string) => void;
    const budget = withBudget(
      (signal) => {
        seen = signal;
        // Work that ignores its signal: only `finish` ends it.
        return new Promise<string>((resolve) => (finish = resolve));
      },
      { timeoutMs: 60_000, signal: outer.signal, label: "Work" },
    );
    await vi.waitFor(() => expect(seen).toBeDefined());
    let settled = false;
    void budget.settled.then(() => (settled = true));
    outer.abort();
    const error = await budget.result.catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error) && error.code).toBe("cancelled");
    expect((error as Error).message).toBe("Work was cancelled before it finished.");
    expect(seen!.aborted).toBe(true);
    expect(seen!.reason).toBe(error);
    expect(settled).toBe(false);
    finish("late");
    await budget.settled;
  });

  it("answers `timeout` with the timeout as the work's abort reason", async () => {
    let seen: AbortSignal | undefined;
    const budget = withBudget(
      (signal) => {
        seen = signal;
        return new Promise(() => undefined);
      },
      { timeoutMs: 20, signal: new AbortController().signal, label: "Work" },
    );
    const error = await budget.result.catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error) && error.code).toBe("timeout");
    expect(seen!.reason).toBe(error);
  });

  it("passes the work's own failure through, and settles once it has failed", async () => {
    const budget = withBudget(async () => Promise.reject(new Error("boom")), {
      timeoutMs: 1_000,
      signal: new AbortController().signal,
      label: "Work",
    });
    await expect(budget.result).rejects.toThrow("boom");
    await expect(budget.settled).resolves.toBeUndefined();
  });

  it("leaves no timer and no listener on the outer signal once answered", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const outer = new AbortController();
      await withBudget(async () => "done", { timeoutMs: 1_000, signal: outer.signal, label: "Work" }).result;
      expect(vi.getTimerCount()).toBe(0);
      expect(getEventListeners(outer.signal, "abort")).toHaveLength(0);
      const timedOut = withBudget(() => new Promise(() => undefined), {
        timeoutMs: 1_000,
        signal: outer.signal,
        label: "Work",
      }).result.catch(() => "timed out");
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await timedOut).toBe("timed out");
      expect(getEventListeners(outer.signal, "abort")).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not fire a long budget early", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let answered = false;
      const budget = withBudget(() => new Promise(() => undefined), {
        timeoutMs: 1_000,
        signal: new AbortController().signal,
        label: "Work",
      });
      void budget.result.catch(() => (answered = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(answered).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
