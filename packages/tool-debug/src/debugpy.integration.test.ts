import { ConversationId, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createDebugSupervisor, DebugSupervisor, type DebugSupervisorInstance, type DebugSupervisorSettings } from "./debug-supervisor.js";
import { debugPlugin } from "./plugin.js";
import { cachedDebugpyPython, copyFixture, realAdapterAvailable, stillRunning } from "./test-support/real-adapters.js";

const python = cachedDebugpyPython();
const available = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);

let supervisors: DebugSupervisorInstance[] = [];

afterEach(async () => {
  await Promise.all(supervisors.map((supervisor) => supervisor.dispose()));
  supervisors = [];
});

function setUp(settings: DebugSupervisorSettings = {}, fixture = "python-app"): { run: FakeRun; supervisor: DebugSupervisorInstance; workdir: string } {
  const workdir = copyFixture(fixture);
  const supervisor = createDebugSupervisor({ debugpyPython: python!, ...settings });
  supervisors.push(supervisor);
  const run = createFakeRun({ plugins: [debugPlugin], resources: [[DebugSupervisor, supervisor], [Workdir, workdir], [ConversationId, "conversation-1"]] });
  return { run, supervisor, workdir };
}

async function call(run: FakeRun, input: Record<string, unknown>): Promise<{ text: string; structured: Record<string, unknown> | undefined; isError: boolean }> {
  const result = await run.call("debug", input);
  return { text: resultText(result), structured: result.structured, isError: result.isError === true };
}

describe.runIf(available)("debug over debugpy", () => {
  it("stops at a queued breakpoint and walks stack, scopes, variables, evaluate, step and continue", async () => {
    const { run } = setUp();
    const queued = await call(run, { op: "breakpoints", file: "app.py", lines: [5] });
    expect(queued.text).toContain("queued");
    const launch = await call(run, { op: "launch", program: "app.py" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("Stopped (breakpoint)");
    expect(launch.text).toContain("app.py:5");
    expect(launch.text).toContain("total = left + right");
    expect(launch.text).toMatch(/line 5: verified/);
    const stack = await call(run, { op: "stack" });
    expect(stack.text).toMatch(/add at app\.py:5[\s\S]*main at app\.py:13/);
    const frames = (stack.structured!["frames"] as Array<{ id: number }>);
    const scopes = await call(run, { op: "scopes", frame_id: frames[0]!.id });
    const locals = (scopes.structured!["scopes"] as Array<{ name: string; reference: number }>).find((scope) => /local/i.test(scope.name))!;
    const variables = await call(run, { op: "variables", reference: locals.reference });
    expect(variables.text).toContain("left (int) = 2");
    expect(variables.text).toContain("right (int) = 3");
    const evaluated = await call(run, { op: "evaluate", expression: "left * 10 + right" });
    expect(evaluated.text).toContain("= 23");
    const stepped = await call(run, { op: "step_over" });
    expect(stepped.text).toContain("app.py:6");
    expect(stepped.text).toContain("return total");
    const ended = await call(run, { op: "continue" });
    expect(ended.text).toContain("ended with exit code 0");
    expect(ended.text).toContain("result 5 100 1000");
    const output = await call(run, { op: "output" });
    expect(output.text).toContain("[stderr] to stderr");
  });
});
