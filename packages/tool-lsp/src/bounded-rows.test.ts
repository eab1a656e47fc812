import { describe, expect, it } from "vitest";
import { boundedRows } from "./bounded-rows.js";

const settings = { maxBytes: 1_000, narrow: "give a longer `query`", noun: ["symbol", "symbols"] as const };

describe("boundedRows", () => {
  it("says the total when everything fits", () => {
    expect(boundedRows({ ...settings, rows: ["a", "b"], total: 2, cap: 10 })).toEqual({
      header: "2 symbols.",
      shown: ["a", "b"],
    });
    expect(boundedRows({ ...settings, rows: ["a"], total: 1, cap: 10 }).header).toBe("1 symbol.");
  });

  it("says N of M and how to narrow when the cap or the byte bound cuts", () => {
    expect(boundedRows({ ...settings, rows: ["a", "b", "c"], total: 3, cap: 2 })).toEqual({
      header: "2 of 3 symbols shown; give a longer `query`.",
      shown: ["a", "b"],
    });
    expect(
      boundedRows({ ...settings, rows: ["x".repeat(600), "y".repeat(600)], total: 2, cap: 10 }).shown,
    ).toHaveLength(1);
    // Each row costs its bytes plus a line break: two of 499 fill 1,000 bytes exactly, two of 500 do not.
    expect(
      boundedRows({ ...settings, rows: ["x".repeat(499), "y".repeat(499)], total: 2, cap: 10 }).shown,
    ).toHaveLength(2);
    expect(
      boundedRows({ ...settings, rows: ["x".repeat(500), "y".repeat(500)], total: 2, cap: 10 }).shown,
    ).toHaveLength(1);
    expect(boundedRows({ ...settings, rows: ["a"], total: 7, cap: 10 }).header).toBe(
      "1 of 7 symbols shown; give a longer `query`.",
    );
  });
});
