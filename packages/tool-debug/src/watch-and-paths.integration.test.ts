import { describe, expect, it } from "vitest";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, realAdapterOnPath } from "./test-support/real-adapters.js";

// Issue 26 items 1 and 4: data breakpoints where the adapter answers `dataBreakpointInfo` (dlv), and
// `variables` on an expression path in one call.
const python = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const delveAvailable = await realAdapterOnPath("delve");

const startGo = debugTestRuns("go-lib");
const startPython = debugTestRuns("python-app");

describe.runIf(delveAvailable)("watch and expression paths over delve", () => {
  it("stops where a watched variable is written, each time", async () => {
    const { call } = startGo({ stopBudgetMs: 30_000 });
    await call({ op: "breakpoints", file: "lib.go", lines: [21] });
    await call({ op: "launch", mode: "test", program: ".", test: "TestSum" });
    const watched = await call({ op: "watch", expression: "total" });
    expect(watched.isError, watched.text).toBe(false);
    expect(watched.text).toMatch(/total \(write\): verified/);
    await call({ op: "breakpoints", file: "lib.go", lines: [] });
    const first = await call({ op: "continue" });
    expect(first.text).toContain("Stopped (data breakpoint");
    expect(first.text).toContain("lib.go:22");
    const second = await call({ op: "continue" });
    expect(second.text).toContain("Stopped (data breakpoint");
    expect((await call({ op: "evaluate", expression: "index" })).text).toContain("= 1");
    expect((await call({ op: "watch" })).text).toContain("Cleared the data breakpoints.");
    expect((await call({ op: "continue" })).text).toContain("ended");
  }, 240_000);

  it("lists the children of an expression path", async () => {
    const { call } = startGo({ stopBudgetMs: 30_000 });
    await call({ op: "breakpoints", file: "lib.go", lines: [16] });
    await call({ op: "launch", mode: "test", program: ".", test: "TestDescribe" });
    const tags = await call({ op: "variables", expression: "config.Tags" });
    expect(tags.isError, tags.text).toBe(false);
    expect(tags.text).toMatch(/^config\.Tags \(\[\]string\) = /);
    expect(tags.text).toContain('[0] (string) = "a"');
    expect(tags.text).toContain('[1] (string) = "b"');
    expect((await call({ op: "variables", expression: "config.Name" })).text).toBe(
      'config.Name (string) = "web" (no children)',
    );
  }, 240_000);
});

describe.runIf(debugpyAvailable)("watch and expression paths over debugpy", () => {
  it("refuses a data breakpoint by name, and lists the children of an expression path", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "app.py", lines: [13] });
    await call({ op: "launch", program: "app.py" });
    const refused = await call({ op: "watch", expression: "numbers" });
    expect(refused.code).toBe("invalid_input");
    expect(refused.text).toContain("debugpy does not support data breakpoints");
    const slice = await call({ op: "variables", expression: "numbers[2:5]" });
    expect(slice.text).toMatch(/numbers\[2:5\] \(list\) = \[2, 3, 4\]/);
    expect(slice.text).toContain("0 (int) = 2");
  });
});
