import { listDescendants } from "@runbound/runtime-kit/testing";
import { describe, expect, it } from "vitest";
import { debugTestRuns, type DebugTestRun } from "./test-support/debug-test-run.js";
import { findExecutable, pathDirectories } from "@runbound/runtime-kit";
import { realAdapterAvailable, realAdapterOnPath, stillRunning } from "./test-support/real-adapters.js";
import { countedRustc } from "./test-support/counted-rustc.js";
import { builtRustFixture } from "./test-support/rust-fixture.js";

const cargo = await findExecutable(["cargo"], pathDirectories(process.env["PATH"]));
const rustc = await findExecutable(["rustc"], pathDirectories(process.env["PATH"]));
const available =
  (await realAdapterOnPath("lldb")) &&
  realAdapterAvailable("cargo", cargo !== undefined) &&
  realAdapterAvailable("rustc", rustc !== undefined);

const start = debugTestRuns(() => builtRustFixture(cargo));
const setUp = (stopBudgetMs = 15_000): DebugTestRun => start({ stopBudgetMs });

type Row = { name: string; value: string; reference: number };
const variablesOf = async (call: DebugTestRun["call"], reference: number): Promise<{ text: string; rows: Row[] }> => {
  const answer = await call({ op: "variables", reference });
  return { text: answer.text, rows: answer.structured!["variables"] as Row[] };
};

async function sessionPids(run: DebugTestRun): Promise<number[]> {
  const session = run.supervisor.session("conversation-1");
  return [...new Set([...session.knownPids(), ...(await listDescendants(session.adapterPid!)).map((row) => row.pid)])];
}

describe.runIf(available)("debug over lldb (a Rust crate built with cargo, Cargo.toml marker)", () => {
  it("stops at a breakpoint, shows a struct and Vecs by their fields and elements, evaluates, steps and runs to the end", async () => {
    const run = setUp();
    const { call } = run;
    expect((await call({ op: "adapters" })).text).toMatch(/lldb: available — Cargo\.toml found in `\.`/);
    await call({ op: "breakpoints", file: "src/main.rs", lines: [19] });
    const launch = await call({ op: "launch", program: "target/debug/rust-app" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("with lldb");
    expect(launch.text).toContain("rust_app::main src/main.rs:19");
    expect(launch.text).toContain("let result = total(&points) + values.len() as i32;");
    const pids = await sessionPids(run);
    expect(pids.length).toBeGreaterThanOrEqual(3);

    const stack = await call({ op: "stack" });
    expect(stack.text).toMatch(/^#\d+ rust_app::main at src\/main\.rs:19$/m);
    expect(stack.text).not.toMatch(/::h[0-9a-f]{16}/);
    const frame = (stack.structured!["frames"] as Array<{ id: number }>)[0]!.id;
    const scopes = await call({ op: "scopes", frame_id: frame });
    const locals = (scopes.structured!["scopes"] as Array<{ name: string; reference: number }>).find((scope) =>
      /local/i.test(scope.name),
    )!;
    const { text: localsText, rows } = await variablesOf(call, locals.reference);
    expect(localsText).toMatch(/^origin \(rust_app::Point\) = .*\[reference \d+\]$/m);
    // The toolchain's formatters loaded: a Vec shows its length, not an address.
    expect(localsText).toMatch(/^values \(alloc::vec::Vec<int, .*\) = +size=3 \[reference \d+\]$/m);
    expect(localsText).toMatch(/^points \(alloc::vec::Vec<rust_app::Point, .*\) = +size=2 \[reference \d+\]$/m);
    const byName = (name: string): Row => rows.find((row) => row.name === name)!;
    expect((await variablesOf(call, byName("origin").reference)).rows.map((row) => `${row.name}=${row.value}`)).toEqual(
      ["x=2", "y=3"],
    );
    expect((await variablesOf(call, byName("values").reference)).rows.map((row) => `${row.name}=${row.value}`)).toEqual(
      ["[0]=10", "[1]=20", "[2]=30"],
    );
    const points = (await variablesOf(call, byName("points").reference)).rows;
    expect(points.map((row) => row.name)).toEqual(["[0]", "[1]"]);
    expect((await variablesOf(call, points[1]!.reference)).rows.map((row) => `${row.name}=${row.value}`)).toEqual([
      "x=2",
      "y=3",
    ]);

    expect((await call({ op: "evaluate", expression: "origin.x * 10 + origin.y", frame_id: frame })).text).toContain(
      "= 23",
    );
    const stepped = await call({ op: "step_over" });
    expect(stepped.text).toContain("src/main.rs:20");
    expect(stepped.text).toContain('println!("result {}", result);');
    const ended = await call({ op: "continue" });
    expect(ended.text, ended.text).toContain("ended with exit code 0");
    expect((await call({ op: "output" })).text).toContain("result 11");
    expect((await call({ op: "terminate" })).text).toContain("Terminated");
    expect(await stillRunning(pids)).toEqual([]);
  });

  it("an expression lldb cannot evaluate is answered with lldb's message and how to fix it, not as a bug", async () => {
    const { call } = setUp();
    await call({ op: "breakpoints", file: "src/main.rs", lines: [11] });
    const launch = await call({ op: "launch", program: "target/debug/rust-app" });
    expect(launch.text).toContain("rust_app::total src/main.rs:11");
    // `origin` is a local of main, not of total, the top frame.
    const failed = await call({ op: "evaluate", expression: "origin.x" });
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(
      /^Error \(invalid_input\): The debug adapter refused `evaluate`: .*undeclared identifier 'origin'/s,
    );
    expect(failed.text).toContain("op `stack` lists the frames");
    expect(failed.text).not.toContain("bug in the tool");
    const stack = (await call({ op: "stack" })).structured!["frames"] as Array<{ id: number; name: string }>;
    const main = stack.find((frame) => frame.name === "rust_app::main")!;
    expect((await call({ op: "evaluate", expression: "origin.x", frame_id: main.id })).text).toContain("= 2");
  });

  it("asks rustc for the toolchain once in the supervisor's life, and every launch still loads the formatters", async () => {
    const counted = countedRustc(rustc!);
    const run = start({ stopBudgetMs: 15_000, env: counted.env });
    const { call } = run;
    await call({ op: "breakpoints", file: "src/main.rs", lines: [19] });
    for (let launch = 1; launch <= 2; launch++) {
      expect((await call({ op: "launch", program: "target/debug/rust-app" })).text).toContain(
        "rust_app::main src/main.rs:19",
      );
      const pids = await sessionPids(run);
      const frame = ((await call({ op: "stack" })).structured!["frames"] as Array<{ id: number }>)[0]!.id;
      const scopes = (await call({ op: "scopes", frame_id: frame })).structured!["scopes"] as Array<{
        name: string;
        reference: number;
      }>;
      const locals = scopes.find((scope) => /local/i.test(scope.name))!;
      expect((await variablesOf(call, locals.reference)).text, `launch ${launch}`).toMatch(
        /^values \(alloc::vec::Vec<int, .*\) = +size=3 \[reference \d+\]$/m,
      );
      expect((await call({ op: "terminate" })).text).toContain("Terminated");
      expect(await stillRunning(pids)).toEqual([]);
    }
    expect(counted.runs()).toBe(1);
  });

  it("terminate leaves nothing of a looping Rust program in the process table", async () => {
    const run = setUp(2_000);
    const { call } = run;
    await call({ op: "breakpoints", file: "src/main.rs", lines: [23] });
    const launch = await call({ op: "launch", program: "target/debug/rust-app", args: ["loop"] });
    expect(launch.text).toContain("src/main.rs:23");
    const pids = await sessionPids(run);
    expect(pids.length).toBeGreaterThanOrEqual(3);
    await call({ op: "breakpoints", file: "src/main.rs", lines: [] });
    expect((await call({ op: "continue" })).text).toContain("Still running");
    expect((await call({ op: "terminate" })).text).toContain("Terminated");
    expect(await stillRunning(pids)).toEqual([]);
  });
});
