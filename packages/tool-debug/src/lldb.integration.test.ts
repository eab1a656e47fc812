import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { listDescendants } from "@runbound/runtime-kit/testing";
import { describe, expect, it } from "vitest";
import { debugTestRuns, type DebugTestRun } from "./test-support/debug-test-run.js";
import { realAdapterOnPath, stillRunning } from "./test-support/real-adapters.js";

const available = await realAdapterOnPath("lldb");

const setUp = (stopBudgetMs = 15_000): DebugTestRun => start({ stopBudgetMs });
const start = debugTestRuns("c-app", (workdir) =>
  execFileSync("gcc", ["-g", "-O0", "-o", join(workdir, "app"), join(workdir, "main.c")]),
);

describe.runIf(available)("debug over lldb (a C program built with gcc -g)", () => {
  it("stops at a breakpoint, inspects, steps and runs to the end with the output captured", async () => {
    const { call } = setUp();
    await call({ op: "breakpoints", file: "main.c", lines: [5] });
    const launch = await call({ op: "launch", program: "app" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("with lldb");
    expect(launch.text).toContain("main.c:5");
    expect(launch.text).toContain("int total = left + right;");
    const stack = await call({ op: "stack" });
    expect(stack.text).toMatch(/add.* at main\.c:5[\s\S]*main.* at main\.c:10/);
    const frame = (stack.structured!["frames"] as Array<{ id: number }>)[0]!.id;
    const scopes = await call({ op: "scopes", frame_id: frame });
    const locals = (scopes.structured!["scopes"] as Array<{ name: string; reference: number }>).find((scope) =>
      /local/i.test(scope.name),
    )!;
    const variables = await call({ op: "variables", reference: locals.reference });
    expect(variables.text).toMatch(/total \(int\) = /);
    const scopeList = scopes.structured!["scopes"] as Array<{ name: string; reference: number }>;
    const argumentsScope = scopeList.find((scope) => /argument/i.test(scope.name));
    if (argumentsScope !== undefined)
      expect((await call({ op: "variables", reference: argumentsScope.reference })).text).toContain("left (int) = 2");
    const evaluated = await call({ op: "evaluate", expression: "left * 10 + right" });
    expect(evaluated.text).toContain("= 23");
    const stepped = await call({ op: "step_over" });
    expect(stepped.text).toContain("main.c:6");
    const ended = await call({ op: "continue" });
    expect(ended.text, ended.text).toContain("ended with exit code 0");
    expect((await call({ op: "output" })).text).toContain("result 5");
  });

  it("reports a breakpoint on a line without code as not verified", async () => {
    const { call } = setUp();
    await call({ op: "breakpoints", file: "main.c", lines: [5, 500] });
    const launch = await call({ op: "launch", program: "app" });
    const rows = (await call({ op: "breakpoints", file: "main.c", lines: [5, 500] })).structured![
      "breakpoints"
    ] as Array<{ requested: number; verified?: boolean }>;
    expect(launch.text).toContain("main.c:5");
    expect(rows).toEqual([
      expect.objectContaining({ requested: 5, verified: true }),
      expect.objectContaining({ requested: 500, verified: false }),
    ]);
  });

  it("a missing program fails the launch with lldb's message", async () => {
    const { call } = setUp();
    const launch = await call({ op: "launch", program: "no-such-binary" });
    expect(launch.isError).toBe(true);
    expect(launch.text).toContain("`no-such-binary`");
    expect(launch.text).toMatch(
      /lldb could not run `no-such-binary`: .*(unable to find executable|does not exist|No such file)/i,
    );
  });

  it("terminate kills the debuggee by pid (lldb-server starts it in a session of its own)", async () => {
    const { call, supervisor } = setUp(2_000);
    await call({ op: "breakpoints", file: "main.c", lines: [11] });
    const launch = await call({ op: "launch", program: "app", args: ["loop"] });
    expect(launch.text).toContain("main.c:11");
    const session = supervisor.session("conversation-1");
    const pids = [
      ...new Set([...session.knownPids(), ...(await listDescendants(session.adapterPid!)).map((row) => row.pid)]),
    ];
    expect(pids.length).toBeGreaterThanOrEqual(3);
    // Running again, as lldb leaves a debuggee whose adapter is gone.
    expect((await call({ op: "continue" })).text).toContain("Still running");
    expect((await call({ op: "terminate" })).text).toContain("Terminated");
    expect(await stillRunning(pids)).toEqual([]);
  });
});
