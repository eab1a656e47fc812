import { describe, expect, it } from "vitest";
import { createRestartBudget } from "./restart-budget.js";

describe("createRestartBudget", () => {
  it("allows restarts until the limit is reached inside the window", () => {
    let now = 0;
    const budget = createRestartBudget({ limit: 3, windowMs: 1_000, now: () => now });
    expect(budget.recordCrash()).toBe(true);
    now = 100;
    expect(budget.recordCrash()).toBe(true);
    expect(budget.exhausted()).toBe(false);
    now = 200;
    expect(budget.recordCrash()).toBe(false);
    expect(budget.exhausted()).toBe(true);
    expect(budget.crashes()).toBe(3);
  });

  it("forgets crashes older than the window", () => {
    let now = 0;
    const budget = createRestartBudget({ limit: 2, windowMs: 1_000, now: () => now });
    budget.recordCrash();
    now = 1_000;
    expect(budget.crashes()).toBe(0);
    expect(budget.recordCrash()).toBe(true);
    now = 1_999;
    expect(budget.recordCrash()).toBe(false);
  });

  it("reset forgets every crash; defaults are 3 in 5 minutes", () => {
    const budget = createRestartBudget();
    expect([budget.limit, budget.windowMs]).toEqual([3, 300_000]);
    budget.recordCrash();
    budget.recordCrash();
    budget.recordCrash();
    expect(budget.exhausted()).toBe(true);
    budget.reset();
    expect(budget.crashes()).toBe(0);
  });

  it("refuses a limit or window that makes no sense, and accepts the smallest that does", () => {
    expect(() => createRestartBudget({ limit: 0 })).toThrow(/`0`/);
    expect(() => createRestartBudget({ windowMs: -1 })).toThrow(/`-1`/);
    expect(() => createRestartBudget({ windowMs: 0 })).toThrow(/`0` ms/);
    const once = createRestartBudget({ limit: 1, windowMs: 1 });
    expect(once.recordCrash()).toBe(false);
  });
});
