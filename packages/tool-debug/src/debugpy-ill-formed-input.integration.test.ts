import { listDescendants } from "@runbound/runtime-kit/testing";
import { describe, expect, it } from "vitest";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, stillRunning } from "./test-support/real-adapters.js";

const python = cachedDebugpyPython();
const available = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const start = debugTestRuns("python-app");

// Issue 22 item 4: a breakpoint file `"\ud800x"` was queued, sent to debugpy at the next launch, and
// that launch of a program that printed and exited answered "still running" until `terminate`.
describe.runIf(available)("a lone surrogate in the debug tool's input (debugpy)", () => {
  it("is refused as invalid_input, and the next launch of a program that prints and exits reports its exit", async () => {
    const { call, supervisor } = start({ debugpyPython: python!, stopBudgetMs: 20_000 });
    const refused = await call({ op: "breakpoints", file: "\ud800x", lines: [1] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("Field `file` is not well-formed Unicode text: it has a lone surrogate `\\ud800`");
    expect(refused.text).toContain("at position 0 of `\\ud800x`");
    expect((await call({ op: "status" })).text).not.toContain("x:");
    const launch = await call({ op: "launch", program: "app.py" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("ended with exit code 0");
    expect(launch.text).not.toContain("still running");
    expect((await call({ op: "output" })).text).toContain("result 5 100 1000");
    // What the launch started (the adapter, its debuggee) is gone once the session ends.
    const started = (await listDescendants(process.pid)).map((row) => row.pid);
    expect(started.length).toBeGreaterThanOrEqual(1);
    await call({ op: "terminate" });
    await supervisor.dispose();
    for (let waited = 0; (await stillRunning(started)).length > 0 && waited < 10_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await stillRunning(started)).toEqual([]);
  });
});
