import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startInactivityClock } from "./inactivity-clock.js";

describe("startInactivityClock", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("expires once, the budget after the start, when nothing happens", () => {
    const expired = vi.fn();
    startInactivityClock(1_000, expired);
    vi.advanceTimersByTime(999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("stays expired: activity after the expiry does not arm it again", () => {
    const expired = vi.fn();
    const clock = startInactivityClock(1_000, expired);
    vi.advanceTimersByTime(1_000);
    clock.touch();
    clock.pause();
    clock.resume();
    vi.advanceTimersByTime(5_000);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("starts the budget again on every touch", () => {
    const expired = vi.fn();
    const clock = startInactivityClock(1_000, expired);
    for (let step = 0; step < 10; step += 1) {
      vi.advanceTimersByTime(900);
      clock.touch();
    }
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("never expires while a pause is pending, and counts nested pauses", () => {
    const expired = vi.fn();
    const clock = startInactivityClock(1_000, expired);
    clock.pause();
    clock.pause();
    vi.advanceTimersByTime(60_000);
    clock.resume();
    vi.advanceTimersByTime(60_000);
    expect(expired).not.toHaveBeenCalled();
    clock.resume();
    vi.advanceTimersByTime(999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("a touch during a pause does not start the clock", () => {
    const expired = vi.fn();
    const clock = startInactivityClock(1_000, expired);
    clock.pause();
    clock.touch();
    vi.advanceTimersByTime(5_000);
    expect(expired).not.toHaveBeenCalled();
  });

  it("an extra resume does not make a later pause ineffective", () => {
    const expired = vi.fn();
    const clock = startInactivityClock(1_000, expired);
    clock.resume();
    clock.pause();
    vi.advanceTimersByTime(5_000);
    expect(expired).not.toHaveBeenCalled();
  });

  it("stop ends it for good, even after a touch", () => {
    const expired = vi.fn();
    const clock = startInactivityClock(1_000, expired);
    clock.stop();
    clock.touch();
    clock.resume();
    vi.advanceTimersByTime(5_000);
    expect(expired).not.toHaveBeenCalled();
  });
});
