import { describe, expect, it } from "vitest";
import { CheckDurations, checkDurationsOf, MAX_CHECK_WAIT_MS } from "./check-durations.js";

describe("CheckDurations: how long a write waits for one file's check", () => {
  it("a file never checked gets the base ceiling; a quick one keeps it", () => {
    const durations = new CheckDurations();
    expect(durations.waitFor("typescript", "/w/a.ts", 2_500)).toBe(2_500);
    durations.record("typescript", "/w/a.ts", 300);
    expect(durations.waitFor("typescript", "/w/a.ts", 2_500)).toBe(2_500);
  });

  it("a slow file gets twice its last check, up to the most; per server and file", () => {
    const durations = new CheckDurations();
    durations.record("typescript", "/w/big.ts", 2_000);
    expect(durations.waitFor("typescript", "/w/big.ts", 2_500)).toBe(4_000);
    expect(durations.waitFor("python", "/w/big.ts", 2_500)).toBe(2_500);
    expect(durations.waitFor("typescript", "/w/other.ts", 2_500)).toBe(2_500);
    durations.record("typescript", "/w/big.ts", 7_000);
    expect(durations.waitFor("typescript", "/w/big.ts", 2_500)).toBe(MAX_CHECK_WAIT_MS);
  });

  it("a check that did not finish gets the most next time, and a finished one brings it back down", () => {
    const durations = new CheckDurations();
    durations.recordUnfinished("go", "/w/x.go", 2_500);
    expect(durations.waitFor("go", "/w/x.go", 2_500)).toBe(MAX_CHECK_WAIT_MS);
    durations.record("go", "/w/x.go", 100);
    expect(durations.waitFor("go", "/w/x.go", 2_500)).toBe(2_500);
  });

  it("one set of durations per supervisor", () => {
    const first = {};
    const second = {};
    checkDurationsOf(first).record("go", "/w/x.go", 4_000);
    expect(checkDurationsOf(first).waitFor("go", "/w/x.go", 1_000)).toBe(8_000);
    expect(checkDurationsOf(second).waitFor("go", "/w/x.go", 1_000)).toBe(1_000);
  });
});
