import { execFileSync, spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { listDescendants } from "@runbound/runtime-kit/testing";
import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import type { DebugSupervisorSettings } from "./debug-supervisor.js";
import { debugTestRuns, type DebugTestRun } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, stillRunning } from "./test-support/real-adapters.js";

const python = cachedDebugpyPython();
const available = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);

const start = debugTestRuns("python-app");
const setUp = (settings: DebugSupervisorSettings = {}): DebugTestRun => start({ debugpyPython: python!, ...settings });

describe.runIf(available)("debug over debugpy", () => {
  it("stops at a queued breakpoint and walks stack, scopes, variables, evaluate, step and continue", async () => {
    const { call } = setUp();
    const queued = await call({ op: "breakpoints", file: "app.py", lines: [5] });
    expect(queued.text).toContain("queued");
    const launch = await call({ op: "launch", program: "app.py" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("Stopped (breakpoint)");
    expect(launch.text).toContain("app.py:5");
    expect(launch.text).toContain("total = left + right");
    expect(launch.text).toMatch(/line 5: verified/);
    const stack = await call({ op: "stack" });
    expect(stack.text).toMatch(/add at app\.py:5[\s\S]*main at app\.py:13/);
    const frames = stack.structured!["frames"] as Array<{ id: number }>;
    const scopes = await call({ op: "scopes", frame_id: frames[0]!.id });
    const locals = (scopes.structured!["scopes"] as Array<{ name: string; reference: number }>).find((scope) =>
      /local/i.test(scope.name),
    )!;
    const variables = await call({ op: "variables", reference: locals.reference });
    expect(variables.text).toContain("left (int) = 2");
    expect(variables.text).toContain("right (int) = 3");
    const evaluated = await call({ op: "evaluate", expression: "left * 10 + right" });
    expect(evaluated.text).toContain("= 23");
    const stepped = await call({ op: "step_over" });
    expect(stepped.text).toContain("app.py:6");
    expect(stepped.text).toContain("return total");
    const ended = await call({ op: "continue" });
    expect(ended.text).toContain("ended with exit code 0");
    expect(ended.text).toContain("result 5 100 1000");
    const output = await call({ op: "output" });
    expect(output.text).toContain("[stderr] to stderr");
  });

  it("caps variables at 50 children and values at 400 characters, saying what was omitted", async () => {
    const { call } = setUp();
    await call({ op: "breakpoints", file: "app.py", lines: [13] });
    await call({ op: "launch", program: "app.py" });
    const stack = await call({ op: "stack" });
    const frame = (stack.structured!["frames"] as Array<{ id: number }>)[0]!.id;
    const scopes = await call({ op: "scopes", frame_id: frame });
    const locals = (scopes.structured!["scopes"] as Array<{ name: string; reference: number }>).find((scope) =>
      /local/i.test(scope.name),
    )!;
    const variables = await call({ op: "variables", reference: locals.reference });
    const label = (
      variables.structured!["variables"] as Array<{ name: string; value: string; value_cut?: number }>
    ).find((variable) => variable.name === "label")!;
    expect(label.value.length).toBe(401);
    expect(label.value_cut).toBe(602);
    const numbers = (variables.structured!["variables"] as Array<{ name: string; reference: number }>).find(
      (variable) => variable.name === "numbers",
    )!;
    const children = await call({ op: "variables", reference: numbers.reference });
    // debugpy answers 104 children for a 100-item list and ignores paging.
    expect(children.structured!["total"]).toBeGreaterThanOrEqual(100);
    expect((children.structured!["variables"] as unknown[]).length).toBe(50);
    expect(children.text).toMatch(/\d+ of \d+ children not shown \(at most 50/);
  });

  it("reports the requested and the bound line of a breakpoint the adapter moved", async () => {
    const { call } = setUp();
    await call({ op: "breakpoints", file: "app.py", lines: [1] });
    const launch = await call({ op: "launch", program: "app.py" });
    expect(launch.isError, launch.text).toBe(false);
    const set = await call({ op: "breakpoints", file: "app.py", lines: [8, 5] });
    const rows = set.structured!["breakpoints"] as Array<{ requested: number; bound?: number; verified?: boolean }>;
    expect(rows.map((row) => row.requested)).toEqual([8, 5]);
    expect(rows[1]).toMatchObject({ requested: 5, bound: 5, verified: true });
    expect(rows[0]!.bound).not.toBe(8);
    expect(set.text).toMatch(/line 8: .*moved to line \d+/);
  });

  it("stops on an uncaught exception with its type and message", async () => {
    const { call } = setUp();
    const launch = await call({ op: "launch", program: "crash.py" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("Stopped (exception");
    expect(launch.text).toContain("crash.py:2");
    expect(launch.text).toContain("return left / right");
    expect(launch.text).toMatch(/ZeroDivisionError.*division by zero/);
    expect((launch.structured!["stop"] as { exception?: { type?: string } }).exception?.type).toContain(
      "ZeroDivisionError",
    );
  });

  it("answers a launch of a missing program or one with a syntax error with the adapter's message and the output tail", async () => {
    const { call, supervisor } = setUp();
    const missing = await call({ op: "launch", program: "nope.py" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("`nope.py`");
    expect(missing.text).toMatch(/exited with code 1/);
    expect(missing.text).toMatch(/No such file|can't open file|nope\.py/);
    expect(supervisor.status("conversation-1").session).toBeUndefined();
    const broken = await call({ op: "launch", program: "broken.py" });
    expect(broken.isError).toBe(true);
    expect(broken.text).toContain("SyntaxError");
    expect(broken.text).toContain("Program output");
  });

  it("answers still running for a busy program, and pause stops it", async () => {
    const { call } = setUp({ stopBudgetMs: 1_500 });
    const launch = await call({ op: "launch", program: "loop.py" });
    expect(launch.text).toContain("Still running after 1500 ms");
    expect((await call({ op: "status" })).text).toContain(": running");
    const paused = await call({ op: "pause" });
    expect(paused.text).toContain("Stopped (pause");
    expect(paused.text).toContain("loop.py:");
    const again = await call({ op: "pause" });
    expect(again.text).toContain("Stopped (pause");
  });

  it("a continue whose call is cancelled stops waiting at once, says the program still runs, and pause still works", async () => {
    const { run, call } = setUp({ stopBudgetMs: 120_000 });
    await call({ op: "breakpoints", file: "loop.py", lines: [5] });
    expect((await call({ op: "launch", program: "loop.py" })).text).toContain("loop.py:5");
    await call({ op: "breakpoints", file: "loop.py", lines: [] });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 500);
    const cancelled = await run.call("debug", { op: "continue" }, { signal: controller.signal });
    // Far inside the 120 s stop budget the old code waited out.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(resultErrorCode(cancelled)).toBe("cancelled");
    expect(resultText(cancelled)).toContain("still running");
    expect((await call({ op: "status" })).text).toContain(": running");
    expect((await call({ op: "pause" })).text).toContain("Stopped (pause");
  });

  it("rejects a second launch naming the running session, and terminate leaves no process behind", async () => {
    const { call, supervisor } = setUp({ stopBudgetMs: 500 });
    await call({ op: "launch", program: "loop.py" });
    const second = await call({ op: "launch", program: "app.py" });
    expect(second.isError).toBe(true);
    expect(second.text).toContain("already has a debugpy session on `loop.py`");
    expect(second.text).toContain("terminate");
    const session = supervisor.session("conversation-1");
    const pids = [...session.knownPids(), ...(await listDescendants(session.adapterPid!)).map((row) => row.pid)];
    expect(pids.length).toBeGreaterThanOrEqual(2);
    const terminated = await call({ op: "terminate" });
    expect(terminated.text).toContain("Terminated");
    expect(await stillRunning(pids)).toEqual([]);
    expect((await call({ op: "stack" })).text).toContain("no debug session");
    const relaunch = await call({ op: "launch", program: "app.py" });
    expect(relaunch.isError, relaunch.text).toBe(false);
  });

  it("runs the program under the project's .venv python while the adapter runs where debugpy is", async () => {
    const { call, workdir } = setUp();
    // A project venv without debugpy: the adapter must not need it there (research/debug.md §4.1).
    execFileSync(python!, ["-m", "venv", "--without-pip", join(workdir, ".venv")]);
    await call({ op: "breakpoints", file: "interpreter.py", lines: [4] });
    const launch = await call({ op: "launch", program: "interpreter.py" });
    expect(launch.isError, launch.text).toBe(false);
    const evaluated = await call({ op: "evaluate", expression: "executable" });
    expect(evaluated.text).toContain(join(workdir, ".venv", "bin", "python"));
    const adapters = await call({ op: "adapters" });
    expect(adapters.text).toMatch(
      /debugpy: available — pyproject\.toml found in `\.`; found adapter .* -m debugpy\.adapter, program runs under .*\.venv\/bin\/python/,
    );
  });

  it("ends the adapter, the program and their descendants when the time limit passes, with no call", async () => {
    const { call, supervisor } = setUp({ ttlMs: 20_000 });
    await call({ op: "breakpoints", file: "app.py", lines: [5] });
    const launch = await call({ op: "launch", program: "app.py" });
    expect(launch.text).toContain("Stopped (breakpoint)");
    const session = supervisor.session("conversation-1");
    const pids = [
      ...new Set([...session.knownPids(), ...(await listDescendants(session.adapterPid!)).map((row) => row.pid)]),
    ];
    expect((await stillRunning(pids)).sort()).toEqual([...pids].sort());
    for (let waited = 0; (await stillRunning(pids)).length > 0 && waited < 30_000; waited += 200)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await stillRunning(pids)).toEqual([]);
    const later = await call({ op: "stack" });
    expect(later.isError).toBe(true);
    expect(later.text).toContain("expired after its time limit of 20 s");
  });

  it("attaches to a program listening with debugpy on a loopback port and stops at a breakpoint", async () => {
    const { call, workdir } = setUp();
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const address = server.address() as AddressInfo;
        server.close(() => resolve(address.port));
      });
    });
    const debuggee = spawn(
      python!,
      ["-m", "debugpy", "--listen", `127.0.0.1:${port}`, "--wait-for-client", join(workdir, "app.py")],
      { cwd: workdir, stdio: "ignore" },
    );
    try {
      await call({ op: "breakpoints", file: "app.py", lines: [5] });
      // The port opens about a second after the start (research/debug.md §4.1); a probe connection
      // would take the one client slot, so retry the attach while the connection is refused.
      let attach = await call({ op: "attach", port });
      for (let tries = 0; attach.text.includes("ECONNREFUSED") && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        attach = await call({ op: "attach", port });
      }
      expect(attach.isError, attach.text).toBe(false);
      expect(attach.text).toContain(`Attached to \`port ${port}\` with debugpy`);
      expect(attach.text).toContain("app.py:5");
      expect((await call({ op: "evaluate", expression: "left + right" })).text).toContain("= 5");
    } finally {
      debuggee.kill("SIGKILL");
    }
  });
});
