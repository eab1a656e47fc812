import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, realAdapterOnPath } from "./test-support/real-adapters.js";

// Issue 26 item 2: module, cwd, env, stop_on_entry, just_my_code and a test mode per adapter, in one launch.
const python = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const lldbAvailable = await realAdapterOnPath("lldb");
const delveAvailable = await realAdapterOnPath("delve");
const cargoAvailable = realAdapterAvailable("cargo", spawnSync("cargo", ["--version"]).status === 0);
// Test mode runs the project's own pytest: the fixture's `.venv` is the cached virtualenv, which
// .ci/install.d/debug.sh makes with pytest.
const pytestAvailable = realAdapterAvailable(
  "pytest in the debugpy virtualenv",
  python !== undefined && spawnSync(python, ["-c", "import pytest"]).status === 0,
);

const startPython = debugTestRuns("python-app");
const startPythonWithPytest = debugTestRuns("python-app", (workdir) =>
  symlinkSync(dirname(dirname(python!)), join(workdir, ".venv")),
);
const startGo = debugTestRuns("go-lib");
const startRust = debugTestRuns("rust-app");

describe.runIf(debugpyAvailable)("launch options over debugpy", () => {
  it("runs a module with arguments and an added environment variable", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "test_counter.py", lines: [13] });
    const launch = await call({
      op: "launch",
      module: "unittest",
      args: ["-k", "test_env", "test_counter"],
      env: [{ name: "RUNBOUND_FLAVOUR", value: "mint" }],
    });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("Launched `-m unittest` with debugpy");
    expect(launch.text).toContain("test_counter.py:13");
    expect((await call({ op: "evaluate", expression: "flavour" })).text).toContain("= 'mint'");
    const ended = await call({ op: "continue" });
    expect(ended.text).toContain("ended with exit code 0");
    expect(ended.text).toMatch(/Ran 1 test/);
  });

  it("stops on entry in the working directory asked for", async () => {
    const { call, workdir } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    mkdirSync(join(workdir, "sub"));
    const launch = await call({ op: "launch", program: "app.py", cwd: "sub", stop_on_entry: true });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("Stopped (entry");
    expect(launch.text).toContain("app.py:1");
    expect((await call({ op: "evaluate", expression: "__import__('os').getcwd()" })).text).toContain(
      `${join(workdir, "sub")}'`,
    );
    const outside = await call({ op: "launch", program: "app.py", cwd: "/tmp" });
    expect(outside.code).toBe("outside_workdir");
  });

  it("stops at a breakpoint in the standard library (outside the workdir) with just_my_code false", async () => {
    const { call, workdir } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    const library = execFileSync("python3", ["-c", "import json; print(json.__file__)"], { encoding: "utf8" }).trim();
    const line =
      readFileSync(library, "utf8")
        .split("\n")
        .findIndex((text) => text.includes("return _default_encoder.encode(obj)")) + 1;
    expect(line).toBeGreaterThan(0);
    const set = await call({ op: "breakpoints", file: library, lines: [line] });
    expect(set.isError, set.text).toBe(false);
    expect(set.text).toContain(`${library}: queued until launch`);
    const launch = await call({ op: "launch", program: "uses_json.py", just_my_code: false });
    expect(launch.text).toContain(`${library}:${line}`);
    expect((await call({ op: "evaluate", expression: "obj" })).text).toContain("{'a': 1}");
    expect((await call({ op: "stack" })).text).toMatch(/<module> at uses_json\.py:3/);
    const missing = await call({ op: "breakpoints", file: join(workdir, "..", "no-such-dependency.py"), lines: [1] });
    expect(missing.code).toBe("not_found");
  });

  it.runIf(pytestAvailable)("runs pytest on one test in test mode", async () => {
    const { call } = startPythonWithPytest({ debugpyPython: python!, stopBudgetMs: 30_000 });
    await call({ op: "breakpoints", file: "counter.py", lines: [5] });
    const launch = await call({ op: "launch", mode: "test", program: "test_counter.py", test: "test_count" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("Launched `tests of test_counter.py matching test_count` with debugpy");
    expect(launch.text).toContain("counter.py:5");
    expect((await call({ op: "evaluate", expression: "total" })).text).toContain("= 6");
  });

  it("refuses a module for another adapter and a test filter without test mode", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    expect((await call({ op: "launch", module: "pytest", adapter: "delve" })).text).toContain(
      "needs debugpy, not delve",
    );
    expect((await call({ op: "launch", program: "app.py", test: "x" })).text).toContain('add `"mode": "test"`');
    expect((await call({ op: "launch" })).text).toContain("needs `program`");
  });
});

describe.runIf(delveAvailable)("launch options over delve", () => {
  it("runs one Go test under dlv test mode with an added environment variable", async () => {
    const { call, run } = startGo({ stopBudgetMs: 30_000 });
    await call({ op: "breakpoints", file: "lib.go", lines: [16] });
    await call({ op: "breakpoints", file: "lib.go", lines: [16, 23] });
    const launch = await call({
      op: "launch",
      mode: "test",
      program: ".",
      test: "TestDescribe",
      env: [{ name: "RUNBOUND_FLAVOUR", value: "mint" }],
    });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("Launched `tests of . matching TestDescribe` with delve");
    expect(launch.text).toContain("lib.go:16");
    expect(run.progress.length).toBeGreaterThan(0);
    expect((await call({ op: "evaluate", expression: "label" })).text).toContain("web:3:mint");
    // TestSum (line 23) is not run: the program ends without stopping there.
    const ended = await call({ op: "continue" });
    expect(ended.text).toContain("ended");
    expect(ended.text).not.toContain("lib.go:23");
  }, 240_000);
});

describe.runIf(delveAvailable)("dependency code over delve", () => {
  it("stops at a breakpoint in the Go standard library (outside the workdir) and shows its source lines", async () => {
    const { call } = startGo({ stopBudgetMs: 30_000 });
    const library = join(execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim(), "src", "fmt", "print.go");
    const line =
      readFileSync(library, "utf8")
        .split("\n")
        .findIndex((text) => text.startsWith("func Sprintf(")) + 2;
    expect(line).toBeGreaterThan(1);
    await call({ op: "breakpoints", file: library, lines: [line] });
    const launch = await call({ op: "launch", mode: "test", program: ".", test: "TestDescribe" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toMatch(new RegExp(`fmt\\.Sprintf ${library.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${line}`));
    expect(launch.text).toContain(`→ ${line} | \tp := newPrinter()`);
    expect(launch.text).toMatch(/format \(string\) = "%s:%d:%s"/);
  }, 240_000);
});

describe.runIf(lldbAvailable && cargoAvailable)("launch options over lldb", () => {
  it("builds a crate's tests with cargo and stops in the code one test runs", async () => {
    const { call, run } = startRust({ stopBudgetMs: 30_000 });
    await call({ op: "breakpoints", file: "src/main.rs", lines: [11] });
    const launch = await call({
      op: "launch",
      mode: "test",
      program: ".",
      test: "total_adds_coordinates",
      adapter: "lldb",
    });
    expect(launch.isError, launch.text).toBe(false);
    expect(run.progress.map((update) => update.message).join("\n")).toContain("cargo test --no-run");
    expect(launch.text).toContain("main.rs:11");
    expect(launch.text).toMatch(/total/);
  }, 300_000);
});
