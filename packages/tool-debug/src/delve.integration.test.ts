import { listDescendants } from "@runbound/runtime-kit/testing";
import { describe, expect, it } from "vitest";
import { debugTestRuns, type DebugTestRun } from "./test-support/debug-test-run.js";
import { realAdapterOnPath, stillRunning } from "./test-support/real-adapters.js";

const available = await realAdapterOnPath("delve");

const start = debugTestRuns("go-app");
const setUp = (stopBudgetMs = 15_000): DebugTestRun => start({ stopBudgetMs });

describe.runIf(available)("debug over delve (dlv dap dialing in to our socket)", () => {
  it("builds with progress, stops at a breakpoint, inspects, steps and runs to the end with the output captured", async () => {
    const { run, call } = setUp();
    await call({ op: "breakpoints", file: "main.go", lines: [10] });
    const launch = await call({ op: "launch", program: "main.go" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("with delve");
    expect(launch.text).toContain("main.go:10");
    expect(launch.text).toContain("total := left + right");
    expect(run.progress.map((update) => update.message).join("\n")).toMatch(/Building .*main\.go/);
    const stack = await call({ op: "stack" });
    expect(stack.text).toMatch(/main\.add at main\.go:10[\s\S]*main\.main at main\.go:15/);
    const frame = (stack.structured!["frames"] as Array<{ id: number }>)[0]!.id;
    const scopes = await call({ op: "scopes", frame_id: frame });
    const locals = (scopes.structured!["scopes"] as Array<{ name: string; reference: number }>)[0]!;
    const variables = await call({ op: "variables", reference: locals.reference });
    expect(variables.text).toContain("left (int) = 2");
    const evaluated = await call({ op: "evaluate", expression: "left*10 + right" });
    expect(evaluated.text).toContain("= 23");
    const stepped = await call({ op: "step_over" });
    expect(stepped.text).toContain("main.go:11");
    const ended = await call({ op: "continue" });
    expect(ended.text, ended.text).toMatch(/ended/);
    expect((await call({ op: "output" })).text).toContain("result 5");
    // The first build compiles the runtime without optimisations (cold cache: minutes on a busy machine).
  }, 240_000);

  it("answers a Go build error with the compiler's output", async () => {
    const { call, supervisor } = setUp();
    const launch = await call({ op: "launch", program: "broken" });
    expect(launch.isError).toBe(true);
    expect(launch.text).toMatch(/delve could not run `broken`: .*[Bb]uild/);
    expect(launch.text).toMatch(/cannot use "not a number"|declared and not used/);
    expect(supervisor.status("conversation-1").session).toBeUndefined();
  });

  it("terminate kills the debuggee by pid (dlv starts it in a process group of its own)", async () => {
    const { call, supervisor } = setUp(2_000);
    await call({ op: "breakpoints", file: "main.go", lines: [16] });
    const launch = await call({ op: "launch", program: ".", args: ["loop"] });
    expect(launch.text, launch.text).toContain("main.go:16");
    const session = supervisor.session("conversation-1");
    const pids = [
      ...new Set([...session.knownPids(), ...(await listDescendants(session.adapterPid!)).map((row) => row.pid)]),
    ];
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect((await call({ op: "continue" })).text).toContain("Still running");
    expect((await call({ op: "terminate" })).text).toContain("Terminated");
    expect(await stillRunning(pids)).toEqual([]);
  });
});
