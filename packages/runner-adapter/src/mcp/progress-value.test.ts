import { describe, expect, it } from "vitest";
import { createProgressCounter } from "./progress-value.js";

describe("createProgressCounter", () => {
  it("counts notices without numbers", () => {
    const next = createProgressCounter();
    expect([next(undefined, undefined), next(undefined, undefined), next(undefined, undefined)]).toEqual([1, 2, 3]);
  });

  it("keeps a tool's growing numbers and moves a repeat on by a step too small to show, always growing", () => {
    const next = createProgressCounter();
    const values = [next(1, 3), next(1, 3), next(undefined, undefined), next(2, 3), next(2, 3), next(1, 3)];
    for (let index = 1; index < values.length; index += 1) expect(values[index]!).toBeGreaterThan(values[index - 1]!);
    expect(values[0]).toBe(1);
    expect(values[1]).toBeCloseTo(1, 6);
    expect(values[3]).toBe(2);
    expect(values[5]).toBeCloseTo(2, 6);
  });
});
