import { describe, expect, it } from "vitest";
import { eachWithin } from "./each-within.js";

describe("eachWithin", () => {
  it("does every item, never more than four at once", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const left = await eachWithin([1, 2, 3, 4, 5, 6, 7, 8, 9], new AbortController().signal, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      done.push(item);
    });
    expect(left).toEqual([]);
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(4);
  });

  it("stops starting items once the signal aborts, and names those not done", async () => {
    const controller = new AbortController();
    const left = await eachWithin([1, 2, 3, 4, 5, 6, 7, 8], controller.signal, async (item) => {
      if (item === 2) controller.abort();
      await Promise.resolve();
    });
    expect(left).toContain(2);
    expect(left).toEqual(expect.arrayContaining([5, 6, 7, 8]));
  });
});
