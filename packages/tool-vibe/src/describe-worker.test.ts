import { describe, expect, it } from "vitest";
import { describeLastOutput, describeStatus, formatDuration, outputTail, workerView } from "./describe-worker.js";
import type { WorkerSnapshot } from "./vibe-roster.js";

const snapshot: WorkerSnapshot = {
  id: "w1",
  label: "todos",
  tier: "fast",
  status: "running",
  run: 2,
  ceiling: "read",
  brief: "Count the TODOs.",
  elapsedMs: 12_345,
  msSinceOutput: 3_049,
  output: "line one\nline two",
  droppedChars: 0,
  failure: null,
};

describe("formatDuration", () => {
  it("shows tenths under ten seconds, whole seconds under a minute, then minutes", () => {
    expect(formatDuration(0)).toBe("0.0 s");
    expect(formatDuration(9_949)).toBe("9.9 s");
    expect(formatDuration(10_000)).toBe("10 s");
    expect(formatDuration(59_499)).toBe("59 s");
    expect(formatDuration(60_000)).toBe("1 min 00 s");
    expect(formatDuration(185_000)).toBe("3 min 05 s");
  });
});

describe("describeStatus", () => {
  it("gives the run, the elapsed time and, while running, the last output", () => {
    expect(describeStatus(snapshot)).toBe("running (run 2, elapsed 12 s, last output 3.0 s ago)");
    expect(describeStatus({ ...snapshot, msSinceOutput: null })).toBe("running (run 2, elapsed 12 s, no output yet)");
    expect(describeStatus({ ...snapshot, status: "completed" })).toBe("completed (run 2, elapsed 12 s)");
    expect(describeLastOutput({ ...snapshot, msSinceOutput: 61_000 })).toBe("last output 1 min 01 s ago");
  });
});

describe("outputTail", () => {
  it("shows short output as it is", () => {
    expect(outputTail(snapshot, 100)).toBe("line one\nline two");
  });

  it("says how many characters are left out, those the roster dropped included", () => {
    expect(outputTail(snapshot, 8)).toBe("(the first 9 characters are not shown)\n…line two");
    expect(outputTail({ ...snapshot, droppedChars: 5 }, 100)).toBe(
      "(the first 5 characters are not shown)\nline one\nline two",
    );
  });
});

describe("workerView", () => {
  it("names every field for hosts, in seconds, with the output's end", () => {
    expect(workerView(snapshot, 8)).toEqual({
      worker_id: "w1",
      label: "todos",
      tier: "fast",
      status: "running",
      run: 2,
      ceiling: "read",
      elapsed_seconds: 12.3,
      seconds_since_output: 3,
      last_result: "…line two",
      failure: null,
    });
  });

  it("gives null for no output yet and cuts a long failure", () => {
    const view = workerView(
      { ...snapshot, output: "", msSinceOutput: null, status: "failed", failure: "x".repeat(2_000) },
      8,
    );
    expect(view).toMatchObject({ last_result: null, seconds_since_output: null, status: "failed" });
    expect(view["failure"]).toBe(`${"x".repeat(1_000)}…`);
  });
});
