import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { runSteps, runStepsYielding, type Steps } from "./run-steps.js";

/** `count` steps of about `milliseconds` of CPU each, recording which ran. */
function* busySteps(count: number, milliseconds: number, ran: number[]): Steps<string> {
  for (let step = 0; step < count; step += 1) {
    const until = performance.now() + milliseconds;
    while (performance.now() < until);
    ran.push(step);
    yield;
  }
  return "done";
}

describe("runSteps and runStepsYielding", () => {
  it("run every step to the result", async () => {
    const straight: number[] = [];
    expect(runSteps(busySteps(5, 0, straight))).toBe("done");
    const sliced: number[] = [];
    expect(await runStepsYielding(busySteps(5, 0, sliced))).toBe("done");
    expect(straight).toEqual([0, 1, 2, 3, 4]);
    expect(sliced).toEqual(straight);
  });

  it("gives the event loop its turn during long work", async () => {
    const ran: number[] = [];
    let stepsBeforeTurn: number | undefined;
    setImmediate(() => (stepsBeforeTurn = ran.length));
    await runStepsYielding(busySteps(30, 2, ran));
    expect(stepsBeforeTurn).toBeGreaterThanOrEqual(1);
    expect(stepsBeforeTurn).toBeLessThan(30);
  });

  it("stops with the signal's reason once it aborts mid-work, and before starting when it already has", async () => {
    const reason = new ToolError({ code: "timeout", message: "The call ran out of time." });
    const controller = new AbortController();
    const ran: number[] = [];
    setImmediate(() => controller.abort(reason));
    await expect(runStepsYielding(busySteps(1000, 2, ran), controller.signal)).rejects.toBe(reason);
    expect(ran.length).toBeLessThan(1000);

    const none: number[] = [];
    await expect(runStepsYielding(busySteps(3, 0, none), AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(none).toEqual([]);
  });
});
