import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, realAdapterOnPath } from "./test-support/real-adapters.js";

// Issue 26 item 1: conditions, hit conditions, logpoints, exception filters and function breakpoints,
// each against the real adapter, with what it verified or refused.
const python = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const lldbAvailable = await realAdapterOnPath("lldb");
const delveAvailable = await realAdapterOnPath("delve");

const startPython = debugTestRuns("python-app");
const startC = debugTestRuns("c-app", (workdir) =>
  execFileSync("gcc", ["-g", "-O0", "-o", join(workdir, "loop"), join(workdir, "loop.c")]),
);
const startGo = debugTestRuns("go-app");

describe.runIf(debugpyAvailable)("breakpoint kinds over debugpy", () => {
  it("stops where a condition holds, and on the nth hit", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    const queued = await call({
      op: "breakpoints",
      file: "counter.py",
      points: [{ line: 4, condition: "index == 7" }],
    });
    expect(queued.text).toContain("line 4 if index == 7: queued");
    const launch = await call({ op: "launch", program: "counter.py" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("counter.py:4");
    expect(launch.text).toMatch(/line 4 if index == 7: verified/);
    expect((await call({ op: "evaluate", expression: "index" })).text).toContain("= 7");
    const hit = await call({ op: "breakpoints", file: "counter.py", points: [{ line: 4, hit_condition: "1" }] });
    expect(hit.structured!["breakpoints"]).toEqual([
      expect.objectContaining({ requested: 4, hit_condition: "1", verified: true }),
    ]);
    await call({ op: "terminate" });
    await call({ op: "breakpoints", file: "counter.py", points: [{ line: 4, hit_condition: "3" }] });
    await call({ op: "launch", program: "counter.py" });
    expect((await call({ op: "evaluate", expression: "index" })).text).toContain("= 2");
  });

  it("logs at a logpoint without stopping, and the next answer carries the lines", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    await call({
      op: "breakpoints",
      file: "counter.py",
      points: [{ line: 4, log_message: "index={index} total={total}" }, { line: 5 }],
    });
    const launch = await call({ op: "launch", program: "counter.py" });
    expect(launch.text).toContain("counter.py:5");
    expect(launch.text).toContain("Output since the last answer");
    expect(launch.text).toContain("index=9 total=36");
    expect((await call({ op: "output" })).text).toContain("index=0 total=0");
  });

  it("stops on a caught exception with the `raised` filter, and refuses a filter debugpy does not offer", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    const queued = await call({ op: "exceptions", filters: ["raised", "cpp_throw"] });
    expect(queued.text).toContain("queued until launch");
    const launch = await call({ op: "launch", program: "counter.py" });
    expect(launch.text).toContain("Stopped (exception");
    expect(launch.text).toContain("counter.py:10");
    expect(launch.text).toMatch(/ValueError.*caught here/);
    expect(launch.text).toContain("exception filters refused (not offered by debugpy): cpp_throw");
    const none = await call({ op: "exceptions", filters: [] });
    expect(none.text).toContain("No exception filter is set");
    expect(none.text).toContain("raised (Raised Exceptions)");
    const ended = await call({ op: "continue" });
    expect(ended.text).toContain("ended with exit code 0");
  });

  it("stops in a function by name, and lists the exception filters in `adapters`", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    const queued = await call({ op: "breakpoints", functions: ["count"] });
    expect(queued.text).toContain("function count: queued");
    const launch = await call({ op: "launch", program: "counter.py" });
    expect(launch.text).toMatch(/function count: verified/);
    expect(launch.text).toContain("Stopped (function breakpoint");
    expect(launch.text).toMatch(/count counter\.py:[12]/);
    const adapters = await call({ op: "adapters" });
    expect(adapters.text).toMatch(
      /debugpy: available[^\n]*\n {2}exception filters \(op `exceptions`\): raised, uncaught \(default\), userUnhandled/,
    );
  });
});

describe.runIf(lldbAvailable)("breakpoint kinds over lldb (a C program)", () => {
  it("honours a condition and a hit condition, stops in a function by name, and takes lldb's own exception filters only", async () => {
    const { call } = startC({ stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "loop.c", points: [{ line: 6, condition: "index == 7" }] });
    const launch = await call({ op: "launch", program: "loop" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("loop.c:6");
    expect((await call({ op: "evaluate", expression: "index" })).text).toMatch(/= 7\b/);
    await call({ op: "terminate" });
    await call({ op: "breakpoints", file: "loop.c", points: [{ line: 6, hit_condition: "3" }] });
    await call({ op: "launch", program: "loop" });
    expect((await call({ op: "evaluate", expression: "index" })).text).toMatch(/= 2\b/);
    await call({ op: "terminate" });
    await call({ op: "breakpoints", file: "loop.c", lines: [] });
    await call({ op: "breakpoints", functions: ["sum"] });
    const inFunction = await call({ op: "launch", program: "loop" });
    expect(inFunction.text).toMatch(/function sum: verified/);
    expect(inFunction.text).toMatch(/sum.* loop\.c:4/);
    const filters = await call({ op: "exceptions", filters: ["cpp_throw", "raised"] });
    expect(filters.text).toContain("Exception filters set: cpp_throw");
    expect(filters.text).toContain("Refused (the adapter does not offer them): `raised`");
  });
});

describe.runIf(delveAvailable)("breakpoint kinds over delve", () => {
  it("skips a breakpoint whose condition is false, stops at one whose condition holds, and at a function by name", async () => {
    const { call } = startGo({ stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "main.go", points: [{ line: 10, condition: "left == 99" }] });
    await call({ op: "breakpoints", functions: ["main.main"] });
    const launch = await call({ op: "launch", program: "main.go" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toMatch(/function main\.main: verified/);
    expect(launch.text).toContain("main.go:14");
    const skipped = await call({ op: "continue" });
    expect(skipped.text).toContain("ended");
    await call({ op: "terminate" });
    await call({ op: "breakpoints", functions: [] });
    await call({ op: "breakpoints", file: "main.go", points: [{ line: 10, condition: "left == 2" }] });
    const stopped = await call({ op: "launch", program: "main.go" });
    expect(stopped.text).toContain("main.go:10");
    const filters = await call({ op: "exceptions", filters: ["unrecovered-panic"] });
    expect(filters.text).toContain("Exception filters set: unrecovered-panic");
  }, 240_000);
});
