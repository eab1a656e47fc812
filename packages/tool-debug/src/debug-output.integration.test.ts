import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { debugOutputSchema } from "./debug-output.js";
import { debugTool } from "./debug-tool.js";
import { debugTestRuns, type DebugTestRun } from "./test-support/debug-test-run.js";
import { cachedDebugpyPython, realAdapterAvailable, realAdapterOnPath } from "./test-support/real-adapters.js";

const python = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const delveAvailable = await realAdapterOnPath("delve");

const startPython = debugTestRuns("python-app");
const startGo = debugTestRuns("go-lib");

type DebugOutput = v.InferOutput<typeof debugOutputSchema>;

/** Call `debug` and parse its structured value as an MCP client receives it (JSON) with the declared schema. */
function structuredCall(test: DebugTestRun): (input: Record<string, unknown>) => Promise<DebugOutput> {
  return async (input) => {
    const answer = await test.call(input);
    expect(answer.isError, answer.text).toBe(false);
    return v.parse(debugOutputSchema, JSON.parse(JSON.stringify(answer.structured)) as unknown);
  };
}

it("debug declares its output schema, which refuses what the tool never answers", () => {
  expect(debugTool.output).toBe(debugOutputSchema);
  expect(v.safeParse(debugOutputSchema, { state: "paused" }).success).toBe(false);
  expect(v.safeParse(debugOutputSchema, { stop: { line: 3 } }).success).toBe(false);
  expect(v.safeParse(debugOutputSchema, { scopes: [1] }).success).toBe(false);
});

describe.runIf(debugpyAvailable)("debug's structured answers over debugpy", () => {
  it("every op of a session matches the schema, from setup to terminate", async () => {
    const call = structuredCall(startPython({ debugpyPython: python!, stopBudgetMs: 20_000 }));
    expect(await call({ op: "status" })).toEqual({ state: "none" });
    expect((await call({ op: "adapters" })).adapters).toContainEqual(
      expect.objectContaining({ id: "debugpy", available: true }),
    );
    expect(await call({ op: "breakpoints", file: "app.py", lines: [5] })).toEqual({
      file: "app.py",
      breakpoints: [{ requested: 5, queued: true }],
    });
    expect((await call({ op: "breakpoints", functions: ["main"] })).functions).toEqual([
      { name: "main", queued: true },
    ]);
    expect(await call({ op: "exceptions", filters: [] })).toEqual({ queued: [] });

    const launch = await call({ op: "launch", program: "app.py" });
    expect(launch).toMatchObject({ adapter: "debugpy", target: "app.py", state: "stopped" });
    expect(launch.stop).toMatchObject({ file: "app.py", function: "main" });
    await call({ op: "breakpoints", functions: [] });
    const atAdd = await call({ op: "continue" });
    expect(atAdd.stop).toMatchObject({ line: 5, source_line: "    total = left + right" });
    expect(atAdd.stop!.locals!.locals).toContainEqual(expect.objectContaining({ name: "left", value: "2" }));

    expect(await call({ op: "status" })).toMatchObject({ state: "stopped", adapter: "debugpy" });
    expect((await call({ op: "threads" })).threads!.length).toBeGreaterThan(0);
    const stack = await call({ op: "stack" });
    expect(stack.frames![0]).toMatchObject({ name: "add", line: 5 });
    const scopes = await call({ op: "scopes", frame_id: stack.frames![0]!.id });
    const own = (scopes.scopes as Array<{ name: string; reference: number }>).find((scope) =>
      /local/i.test(scope.name),
    )!;
    expect((await call({ op: "variables", reference: own.reference })).variables).toContainEqual(
      expect.objectContaining({ name: "right", value: "3" }),
    );
    expect((await call({ op: "variables" })).locals).toContainEqual(expect.objectContaining({ name: "left" }));
    expect(await call({ op: "locals" })).toMatchObject({ scopes: expect.any(Array), total: expect.any(Number) });
    expect(await call({ op: "variables", expression: "left" })).toMatchObject({ result: "2", reference: 0 });
    expect(await call({ op: "evaluate", expression: "left * 10 + right" })).toMatchObject({ result: "23" });
    expect((await call({ op: "step_out" })).stop).toMatchObject({ function: "main" });
    const numbers = await call({ op: "variables", expression: "numbers[2:5]" });
    expect(numbers).toMatchObject({ expression: "numbers[2:5]", total: expect.any(Number) });
    const filters = await call({ op: "exceptions", filters: ["raised", "cpp_throw"] });
    expect(filters).toMatchObject({ filters: [{ filter: "raised" }], refused: ["cpp_throw"] });
    expect(filters.offered).toContainEqual(expect.objectContaining({ filter: "uncaught" }));

    expect(await call({ op: "continue" })).toMatchObject({ state: "exited", exit_code: 0 });
    expect((await call({ op: "output" })).text).toContain("result 5");
    expect(await call({ op: "terminate" })).toEqual({ terminated: true });
    expect(await call({ op: "terminate" })).toEqual({ terminated: false });
  });

  it("an exception stop, a program still running, a pause and a trace match the schema", async () => {
    const crash = structuredCall(startPython({ debugpyPython: python!, stopBudgetMs: 20_000 }));
    expect((await crash({ op: "launch", program: "crash.py" })).stop!.exception!.type).toContain("ZeroDivisionError");

    const loop = structuredCall(startPython({ debugpyPython: python!, stopBudgetMs: 1_500 }));
    expect(await loop({ op: "launch", program: "loop.py" })).toMatchObject({ state: "running" });
    expect(await loop({ op: "pause" })).toMatchObject({ state: "stopped", stop: { reason: "pause" } });

    const calls = structuredCall(startPython({ debugpyPython: python!, stopBudgetMs: 20_000 }));
    await calls({ op: "launch", program: "calls.py", stop_on_entry: true });
    const trace = await calls({ op: "trace" });
    expect(trace).toMatchObject({ calls: 52, omitted_calls: 47, state: "exited" });
    expect(trace.trace).toContain("main() → 1225  [calls.py:9]");
  });
});

describe.runIf(delveAvailable)("debug's structured answers over delve", () => {
  it("watch, a data-breakpoint stop and clearing match the schema", async () => {
    const call = structuredCall(startGo({ stopBudgetMs: 30_000 }));
    await call({ op: "breakpoints", file: "lib.go", lines: [21] });
    await call({ op: "launch", mode: "test", program: ".", test: "TestSum" });
    expect((await call({ op: "watch", expression: "total" })).watches).toEqual([
      expect.objectContaining({ access: "write", verified: true }),
    ]);
    await call({ op: "breakpoints", file: "lib.go", lines: [] });
    expect((await call({ op: "continue" })).stop).toMatchObject({ file: "lib.go", line: 22 });
    expect(await call({ op: "watch" })).toEqual({ watches: [] });
  }, 240_000);
});
