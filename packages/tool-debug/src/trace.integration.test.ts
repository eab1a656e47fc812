import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, realAdapterOnPath } from "./test-support/real-adapters.js";

// Issue 26 item 6: the calls into the workdir's code in one answer — name, arguments, return value or
// that it raised, depth — repeats collapsed; debugpy only, and `adapters` says so.
const python = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const lldbAvailable = await realAdapterOnPath("lldb");

const startPython = debugTestRuns("python-app");
const startC = debugTestRuns("c-app", (workdir) =>
  execFileSync("gcc", ["-g", "-O0", "-o", join(workdir, "app"), join(workdir, "main.c")]),
);

describe.runIf(debugpyAvailable)("trace over debugpy", () => {
  it("runs to the end from the entry and answers with the calls, repeats collapsed, and how it ended", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    await call({ op: "launch", program: "calls.py", stop_on_entry: true });
    const trace = await call({ op: "trace" });
    expect(trace.isError, trace.text).toBe(false);
    expect(trace.text).toContain("52 call(s) into the workdir's code");
    expect(trace.text).toContain("main() → 1225  [calls.py:9]");
    expect(trace.text).toContain("  add(a=0, b=0) → 0  [calls.py:1]");
    expect(trace.text).toContain("  add(a=0, b=1) → 1\n  … 47 more call(s) of add\n  add(a=1176, b=49) → 1225");
    expect(trace.text).toContain("  boom(x=7) raised  [calls.py:5]");
    expect(trace.text).toMatch(/Then:\nThe program ended with exit code 0/);
    expect(trace.structured).toMatchObject({ calls: 52, omitted_calls: 47, state: "exited" });
  });

  it("stops tracing at the next breakpoint, answering with the calls so far", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "calls.py", lines: [14] });
    await call({ op: "launch", program: "calls.py", stop_on_entry: true });
    const trace = await call({ op: "trace" });
    expect(trace.text).toContain("main() (still running)");
    expect(trace.text).toContain("Then:\nStopped (breakpoint)");
    expect(trace.text).toContain("calls.py:14");
    expect((await call({ op: "continue" })).text).toContain("ended with exit code 0");
  });
});

describe.runIf(lldbAvailable)("trace elsewhere", () => {
  it("is refused by name with lldb, and adapters says which adapters trace", async () => {
    const { call } = startC({ stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "main.c", lines: [5] });
    await call({ op: "launch", program: "app" });
    const refused = await call({ op: "trace" });
    expect(refused.code).toBe("invalid_input");
    expect(refused.text).toContain("works with debugpy only");
    expect((await call({ op: "adapters" })).text).toMatch(/lldb: [\s\S]*op trace: no/);
  });
});
