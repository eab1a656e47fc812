import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, realAdapterOnPath } from "./test-support/real-adapters.js";

// Issue 26 items 3 and 4: a stop carries the source around its line and the top frame's locals, a Go
// struct pointer expanded to its fields; `locals` (and `variables` without a reference) in one call.
const python = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const lldbAvailable = await realAdapterOnPath("lldb");
const delveAvailable = await realAdapterOnPath("delve");

const startPython = debugTestRuns("python-app");
const startGo = debugTestRuns("go-lib");
const startC = debugTestRuns("c-app", (workdir) =>
  execFileSync("gcc", ["-g", "-O0", "-o", join(workdir, "app"), join(workdir, "main.c")]),
);

describe.runIf(debugpyAvailable)("locals in one call over debugpy", () => {
  it("a stop shows two source lines either side and the locals; locals and variables without a reference read a frame", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "app.py", lines: [5] });
    const launch = await call({ op: "launch", program: "app.py" });
    expect(launch.text).toContain(
      "  4 | def add(left, right):\n→ 5 |     total = left + right\n  6 |     return total",
    );
    expect(launch.text).toMatch(/Locals \(Locals\):\n {2}left \(int\) = 2\n {2}right \(int\) = 3/);
    expect(launch.text).not.toContain("special variables");
    const stop = launch.structured!["stop"] as {
      locals: { locals: Array<{ name: string; value: string }> };
      source_context: unknown[];
    };
    expect(stop.locals.locals.map((local) => local.name)).toEqual(["left", "right"]);
    expect(stop.source_context).toHaveLength(5);
    const stepped = await call({ op: "step_over" });
    expect(stepped.text).toContain("total (int) = 5");
    expect((await call({ op: "variables" })).text).toMatch(/3 of 3 local\(s\) of frame \d+[\s\S]*total \(int\) = 5/);
    const stack = await call({ op: "stack" });
    const caller = (stack.structured!["frames"] as Array<{ id: number }>)[1]!.id;
    const locals = await call({ op: "locals", frame_id: caller });
    expect(locals.text).toMatch(/numbers \(list\) = \[0, 1, 2/);
    const label = (locals.structured!["locals"] as Array<{ name: string; value: string; value_cut?: number }>).find(
      (local) => local.name === "label",
    )!;
    expect(label.value_cut).toBe(602);
  });
});

describe.runIf(delveAvailable)("locals in one call over delve", () => {
  it("a stop expands a struct pointer to its fields", async () => {
    const { call } = startGo({ stopBudgetMs: 30_000 });
    await call({ op: "breakpoints", file: "lib.go", lines: [16] });
    const launch = await call({ op: "launch", mode: "test", program: ".", test: "TestDescribe" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toMatch(/config \(\*example\.com\/golib\.Config\) = /);
    expect(launch.text).toMatch(
      /\n {4}\.Name \(string\) = "web"\n {4}\.Count \(int\) = 3\n {4}\.Tags \(\[\]string\) = /,
    );
    expect(launch.text).toContain('label (string) = "web:3:"');
    const stop = launch.structured!["stop"] as {
      locals: { locals: Array<{ name: string; fields?: Array<{ name: string }> }> };
    };
    expect(stop.locals.locals.find((local) => local.name === "config")!.fields!.map((field) => field.name)).toEqual([
      "Name",
      "Count",
      "Tags",
    ]);
  }, 240_000);
});

describe.runIf(lldbAvailable)("locals in one call over lldb", () => {
  it("a stop in C shows the function's arguments and locals", async () => {
    const { call } = startC({ stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "main.c", lines: [5] });
    const launch = await call({ op: "launch", program: "app" });
    expect(launch.text).toMatch(/Locals \(Locals\):/);
    expect(launch.text).toContain("left (int) = 2");
    expect(launch.text).toContain("right (int) = 3");
    expect(launch.text).toContain("→ 5 |   int total = left + right;");
  });
});
