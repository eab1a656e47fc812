import { describe, expect, it } from "vitest";
import { findExecutable, pathDirectories } from "@runbound/runtime-kit";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, realAdapterOnPath } from "./test-support/real-adapters.js";
import { builtRustFixture } from "./test-support/rust-fixture.js";

// Issue 26 item 5: Rust frames demangled, runs of standard-library frames collapsed, the debugger's
// chatter kept out of the program's output, and a status line in plain words.
const python = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const cargo = await findExecutable(["cargo"], pathDirectories(process.env["PATH"]));
const lldbAvailable = (await realAdapterOnPath("lldb")) && realAdapterAvailable("cargo", cargo !== undefined);
const delveAvailable = await realAdapterOnPath("delve");

const startRust = debugTestRuns(() => builtRustFixture(cargo));
const startGo = debugTestRuns("go-lib");
const startPython = debugTestRuns("python-app");

describe.runIf(lldbAvailable)("readable answers over lldb (Rust)", () => {
  it("demangles a closure's frame, collapses the std and core frames, and keeps lldb's init commands out of the output", async () => {
    const { call } = startRust({ stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "src/main.rs", lines: [11] });
    await call({ op: "launch", program: "target/debug/rust-app" });
    const inClosure = await call({ op: "continue" });
    expect(inClosure.text).toContain("rust_app::total::{{closure}} src/main.rs:11");
    const stack = await call({ op: "stack" });
    expect(stack.text).not.toContain("$u7b$");
    expect(stack.text).not.toContain("$LT$");
    expect(stack.text).toMatch(
      /^#\d+ rust_app::total::\{\{closure\}\} at src\/main\.rs:11\n… \d+ frames in core \(#\d+ … #\d+\)\n#\d+ rust_app::total at src\/main\.rs:11\n#\d+ rust_app::main at src\/main\.rs:19\n… \d+ frames in core, std, libc/m,
    );
    // 25 frames, all of them still addressable by id in the structured twin.
    expect((stack.structured!["frames"] as unknown[]).length).toBe(stack.structured!["total"]);
    expect(stack.text.length).toBeLessThan(600);
    await call({ op: "breakpoints", file: "src/main.rs", lines: [] });
    await call({ op: "continue" });
    const output = await call({ op: "output" });
    expect(output.text).toContain("result 11");
    expect(output.text).not.toContain("(lldb)");
    expect(output.text).not.toContain("Running initCommands");
  });
});

describe.runIf(delveAvailable)("readable answers over delve", () => {
  it("collapses the testing and runtime frames below a test", async () => {
    const { call } = startGo({ stopBudgetMs: 30_000 });
    await call({ op: "breakpoints", file: "lib.go", lines: [16] });
    await call({ op: "launch", mode: "test", program: ".", test: "TestDescribe" });
    const stack = await call({ op: "stack" });
    expect(stack.text).toMatch(
      /golib\.Describe at lib\.go:16\n#\d+ golib\.TestDescribe at lib_test\.go:7\n… \d+ frames in testing, runtime \(#\d+ … #\d+\)$/,
    );
  }, 240_000);
});

describe.runIf(debugpyAvailable)("readable answers over debugpy", () => {
  it("says the state and the time left in plain words", async () => {
    const { call } = startPython({ debugpyPython: python!, stopBudgetMs: 20_000 });
    await call({ op: "breakpoints", file: "app.py", lines: [5] });
    await call({ op: "launch", program: "app.py" });
    expect((await call({ op: "status" })).text).toMatch(
      /^debugpy session on `app\.py`: stopped \(breakpoint\) in thread \d+\.\nStarted \d+ s ago; the session ends in (29 min \d+ s|30 min) \(its time limit is 30 min\), or at op `terminate`\.\nBreakpoints: app\.py: 5$/,
    );
    await call({ op: "continue" });
    expect((await call({ op: "status" })).text).toContain(
      "debugpy session on `app.py`: exited with code 0: the program has ended; launch again to rerun it.",
    );
  });
});
