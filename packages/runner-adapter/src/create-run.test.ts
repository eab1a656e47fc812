import {
  definePlugin,
  defineTool,
  defineWriteObserver,
  resultErrorCode,
  resultText,
  ToolError,
  type Plugin,
} from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { Clock, Counter, examplePlugin } from "./__fixtures__/example-plugin.js";
import { askFor } from "./approval.js";
import { PLAN_CALLER } from "./callers.js";
import { createRun } from "./create-run.js";

async function runWithCounter(settings: Partial<Parameters<typeof createRun>[0]> = {}) {
  const run = createRun({ plugins: [examplePlugin], ...settings });
  const counter = { count: 0 };
  await run.attach(Counter, { value: counter });
  return { run, counter };
}

describe("createRun: visibility", () => {
  it("hides write and exec tools from a plan caller and answers a call to one as unknown, listing what it can call", async () => {
    const { run } = await runWithCounter();
    expect(run.visibleTools(PLAN_CALLER).map((tool) => tool.name)).toEqual(["peek", "hang", "fail", "relay", "big"]);
    const result = await run.call("bump", { by: 1 }, { caller: PLAN_CALLER });
    expect(resultErrorCode(result)).toBe("unknown_tool");
    expect(resultText(result)).toContain(
      "Unknown tool `bump` for caller `plan`. Tools you can call: peek, hang, fail, relay, big.",
    );
  });

  it("registers a tool only while its resource is attached, and says which resource is missing", async () => {
    const run = createRun({ plugins: [examplePlugin] });
    const changes = vi.fn();
    run.onToolsChanged(changes);
    expect(run.visibleTools().map((tool) => tool.name)).not.toContain("peek");
    const result = await run.call("peek", {});
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toContain("`example.counter` (A counter for tests.)");
    await run.attach(Counter, { value: { count: 5 } });
    expect(run.visibleTools().map((tool) => tool.name)).toContain("peek");
    expect(resultText(await run.call("peek", {}))).toBe("count=5");
    await run.detach(Counter);
    expect(run.visibleTools().map((tool) => tool.name)).not.toContain("peek");
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it("says `(none)` when the caller can call nothing, and names every missing resource", async () => {
    expect(resultText(await createRun({ plugins: [] }).call("nope", {}))).toContain(
      "Unknown tool `nope` for caller `main`. Tools you can call: (none).",
    );
    const both = defineTool({
      name: "both",
      tier: "read",
      description: "Needs two.",
      input: v.strictObject({}),
      requires: [Counter, Clock],
      parallelSafe: true,
      run: async () => "ok",
    });
    const run = createRun({ plugins: [definePlugin({ name: "b", version: "1.0.0", tools: [both] })] });
    expect(resultText(await run.call("both", {}))).toContain(
      "Tool `both` needs `example.counter` (A counter for tests.), `example.clock` (A clock for tests.), which this run does not have attached.",
    );
    expect(run.toolStatus()).toEqual([
      { tool: both, plugin: "b", registered: false, hidden: { kind: "resources", missing: [Counter, Clock] } },
    ]);
    await run.attach(Counter, { value: { count: 0 } });
    await run.attach(Clock, { value: { now: () => 0 } });
    expect(run.toolStatus()).toEqual([{ tool: both, plugin: "b", registered: true }]);
    expect(run.toolStatus(PLAN_CALLER)[0]!.registered).toBe(true);
  });

  it("stops telling a listener about changes once it unsubscribed", async () => {
    const run = createRun({ plugins: [examplePlugin] });
    const changes = vi.fn();
    const unsubscribe = run.onToolsChanged(changes);
    await run.attach(Counter, { value: { count: 0 } });
    unsubscribe();
    await run.detach(Counter);
    expect(changes).toHaveBeenCalledTimes(1);
  });

  it("answers an unknown tool name with the list of callable tools", async () => {
    const { run } = await runWithCounter();
    const result = await run.call("nope", {});
    expect(resultErrorCode(result)).toBe("unknown_tool");
    expect(resultText(result)).toContain("Unknown tool `nope`");
  });

  it("refuses two plugins that register the same tool name, naming both", () => {
    const twin: Plugin = definePlugin({ name: "twin", version: "1.0.0", tools: [examplePlugin.tools[0]!] });
    expect(() => createRun({ plugins: [examplePlugin, twin] })).toThrow(
      "Tool `peek` is defined by both `example` and `twin`.",
    );
  });

  it("refuses a plugin whose input schema cannot be shown to a model as JSON Schema", () => {
    const dated = defineTool({
      name: "dated",
      tier: "read",
      description: "Takes a Date, which JSON cannot carry.",
      input: v.strictObject({ when: v.pipe(v.date(), v.description("When.")) }),
      requires: [],
      parallelSafe: true,
      run: async () => "ok",
    });
    expect(() => createRun({ plugins: [definePlugin({ name: "dated", version: "1.0.0", tools: [dated] })] })).toThrow(
      "The input schema of `dated` cannot be exported as JSON Schema",
    );
  });

  it("refuses a plugin with an unknown specificationVersion", () => {
    const future = { ...examplePlugin, specificationVersion: "tool-v2" } as unknown as Plugin;
    expect(() => createRun({ plugins: [future] })).toThrow("declares specificationVersion `tool-v2`");
  });
});

describe("createRun: validation", () => {
  it.each([
    [{}, "Field `by` is required (expected number)."],
    [{ by: "1" }, 'Field `by` must be number, but got "1".'],
    [{ by: 1, extra: true }, "Field `extra` is not accepted by `bump`; its fields are `by`, `file`."],
  ])("rejects %o before the tool runs", async (input, message) => {
    const { run, counter } = await runWithCounter();
    const result = await run.call("bump", input);
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toContain(message);
    expect(counter.count).toBe(0);
  });

  it("treats null for an optional field as absent (OpenAI strict schemas send null)", async () => {
    const { run } = await runWithCounter();
    expect(resultText(await run.call("peek", { label: null }))).toBe("count=0");
  });
});

describe("createRun: approvals", () => {
  it("denies at once when the policy asks and no approver is connected", async () => {
    const { run, counter } = await runWithCounter({ approvalPolicy: askFor(["write"]) });
    const result = await run.call("bump", { by: 1 });
    expect(resultErrorCode(result)).toBe("denied");
    expect(resultText(result)).toContain("no approver is connected");
    expect(counter.count).toBe(0);
    expect(resultText(await run.call("peek", {}))).toBe("count=0");
  });

  it("asks the approver and follows its answer", async () => {
    const approve = vi.fn().mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    const { run, counter } = await runWithCounter({ approvalPolicy: askFor(["write"]), approver: { approve } });
    expect(resultText(await run.call("bump", { by: 2 }))).toContain("now 2");
    expect(resultErrorCode(await run.call("bump", { by: 2 }))).toBe("denied");
    expect(counter.count).toBe(2);
    expect(approve.mock.calls[0]![0].input).toEqual({ by: 2 });
  });

  it("denies, saying why, when the approver itself fails, and does not run the call", async () => {
    const { run, counter } = await runWithCounter({
      approvalPolicy: askFor(["write"]),
      approver: { approve: () => Promise.reject(new Error("the prompt window was closed.")) },
    });
    const result = await run.call("bump", { by: 1 });
    expect(resultErrorCode(result)).toBe("denied");
    expect(resultText(result)).toContain(
      "Calling `bump` needs approval, and the approver failed (the prompt window was closed), so it was denied.",
    );
    expect(counter.count).toBe(0);
  });

  it("does not wait forever for an approver, and does not run the call", async () => {
    const { run, counter } = await runWithCounter({
      approvalPolicy: askFor(["write"]),
      approver: { approve: () => new Promise(() => undefined) },
      approvalTimeoutMs: 50,
    });
    const result = await run.call("bump", { by: 1 });
    expect(resultErrorCode(result)).toBe("timeout");
    expect(resultText(result)).toContain("The approval of `bump` did not finish within 50 ms");
    expect(counter.count).toBe(0);
  });

  it("denies when the policy says deny", async () => {
    const { run } = await runWithCounter({ approvalPolicy: () => "deny" });
    expect(resultErrorCode(await run.call("peek", {}))).toBe("denied");
  });

  it("denies on a policy deny without asking a connected approver, who would have allowed it", async () => {
    const approve = vi.fn(async () => true);
    const { run, counter } = await runWithCounter({ approvalPolicy: () => "deny", approver: { approve } });
    const result = await run.call("bump", { by: 1 });
    expect(resultErrorCode(result)).toBe("denied");
    expect(resultText(result)).toContain("Calling `bump` was denied. Do not retry the same call");
    expect(approve).not.toHaveBeenCalled();
    expect(counter.count).toBe(0);
  });

  it("answers with the policy's own denial when the policy throws one, without asking a connected approver", async () => {
    const approve = vi.fn(async () => true);
    const policy = () => {
      throw new ToolError({
        code: "denied",
        message: "Calling `bump` is denied by the worker policy. Report back instead.",
      });
    };
    const { run, counter } = await runWithCounter({ approvalPolicy: policy, approver: { approve } });
    const result = await run.call("bump", { by: 1 });
    expect(resultErrorCode(result)).toBe("denied");
    expect(resultText(result)).toBe(
      "Error (denied): Calling `bump` is denied by the worker policy. Report back instead.",
    );
    expect(approve).not.toHaveBeenCalled();
    expect(counter.count).toBe(0);
  });
});

describe("createRun: approving a call made elsewhere on the run's behalf", () => {
  const worker = { name: "worker w1", ceiling: "write" as const };

  it("asks this run's approver with the named caller, and resolves or denies as it answers", async () => {
    const approve = vi.fn().mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    const { run, counter } = await runWithCounter({ approvalPolicy: askFor(["write"]), approver: { approve } });
    await expect(run.approve("bump", { by: 3 }, { caller: worker })).resolves.toBeUndefined();
    expect(approve.mock.calls[0]![0]).toMatchObject({
      tool: { name: "bump" },
      input: { by: 3 },
      caller: worker,
      runId: run.id,
    });
    await expect(run.approve("bump", { by: 3 }, { caller: worker })).rejects.toMatchObject({ code: "denied" });
    expect(counter.count).toBe(0);
  });

  it("follows the policy first: allowed tiers are not asked, denied ones are denied without asking", async () => {
    const approve = vi.fn(async () => true);
    const { run } = await runWithCounter({
      approvalPolicy: (request) => (request.tool.tier === "read" ? "allow" : "deny"),
      approver: { approve },
    });
    await expect(run.approve("peek", {}, { caller: worker })).resolves.toBeUndefined();
    await expect(run.approve("bump", { by: 1 }, { caller: worker })).rejects.toMatchObject({ code: "denied" });
    expect(approve).not.toHaveBeenCalled();
  });

  it("denies a tool the run does not have, and one above the caller's ceiling, naming why", async () => {
    const approve = vi.fn(async () => true);
    const { run } = await runWithCounter({ approvalPolicy: askFor(["write"]), approver: { approve } });
    await expect(run.approve("format_disk", {}, { caller: worker })).rejects.toThrow(/has no tool `format_disk`/);
    await expect(run.approve("bump", { by: 1 }, { caller: PLAN_CALLER })).rejects.toThrow(
      "`bump` is a write tool and plan may use read tools at most",
    );
    expect(approve).not.toHaveBeenCalled();
  });

  it("hands the policy the withdrawal signal, and a withdrawn question ends as cancelled", async () => {
    let seen: AbortSignal | undefined;
    const policy = (_request: unknown, signal: AbortSignal) => {
      seen = signal;
      return "ask" as const;
    };
    const { run } = await runWithCounter({
      approvalPolicy: policy,
      approver: {
        approve: (_request, signal) =>
          new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
      },
    });
    const withdraw = new AbortController();
    const asked = run.approve("bump", { by: 1 }, { caller: worker, signal: withdraw.signal });
    await vi.waitFor(() => expect(seen).toBeDefined());
    withdraw.abort();
    await expect(asked).rejects.toMatchObject({ code: "cancelled" });
    expect(seen!.aborted).toBe(true);
  });
});

describe("createRun: running", () => {
  it("turns a ToolError into an isError result with its code", async () => {
    const { run } = await runWithCounter();
    const result = await run.call("fail", { kind: "tool" });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("Error (not_found): File `x` does not exist.");
  });

  it("refuses a result whose content parts are malformed, and forgets a call once it finished", async () => {
    const broken = defineTool({
      name: "broken",
      tier: "read",
      description: "Answers a text part without text.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async () => ({ content: [{ type: "text" }] }) as never,
    });
    const run = createRun({ plugins: [definePlugin({ name: "m", version: "1.0.0", tools: [broken] })] });
    const result = await run.call("broken", {});
    expect(resultErrorCode(result)).toBe("internal");
    expect(resultText(result)).toContain(
      "Tool `broken` returned a malformed result (expected text or { content: [...] }). This is a bug in the tool.",
    );
    await vi.waitFor(() => expect(run.activeCalls).toBe(0));
  });

  it("turns an unexpected exception or a malformed result into `internal`, and the run goes on", async () => {
    const { run } = await runWithCounter();
    expect(resultErrorCode(await run.call("fail", { kind: "bug" }))).toBe("internal");
    expect(resultErrorCode(await run.call("fail", { kind: "garbage" }))).toBe("internal");
    expect(resultText(await run.call("peek", {}))).toBe("count=0");
  });

  it("stops a call at its timeout and answers `timeout`", async () => {
    const { run } = await runWithCounter();
    const result = await run.call("hang", {});
    expect(resultErrorCode(result)).toBe("timeout");
    expect(resultText(result)).toContain("Tool `hang` did not finish within 200 ms");
  });

  it("answers `cancelled` when the caller aborts", async () => {
    const { run } = await runWithCounter({ defaultTimeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = run.call("launch", { ms: 10_000 }, { signal: controller.signal });
    controller.abort();
    expect(resultErrorCode(await pending)).toBe("cancelled");
  });

  it("serializes tools that are not parallel-safe and lets the others overlap", async () => {
    let active = 0;
    let peak = 0;
    const track = (parallelSafe: boolean, name: string) =>
      defineTool({
        name,
        tier: "read",
        description: "Tracks overlap.",
        input: v.strictObject({}),
        requires: [],
        parallelSafe,
        run: async () => {
          active += 1;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, 20));
          active -= 1;
          return "ok";
        },
      });
    const run = createRun({
      plugins: [definePlugin({ name: "t", version: "1.0.0", tools: [track(false, "serial"), track(true, "free")] })],
    });
    await Promise.all([1, 2, 3].map(() => run.call("serial", {})));
    expect(peak).toBe(1);
    peak = 0;
    await Promise.all([1, 2, 3].map(() => run.call("free", {})));
    expect(peak).toBe(3);
  });

  it("starts the next serialized call once the grace has passed, even when a timed-out call never stops", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const started: number[] = [];
      const stuck = defineTool({
        name: "stuck",
        tier: "exec",
        description: "Never settles and ignores its signal.",
        input: v.strictObject({}),
        requires: [],
        parallelSafe: false,
        timeoutMs: 100,
        run: () => {
          started.push(Date.now());
          return new Promise(() => undefined);
        },
      });
      const run = createRun({ plugins: [definePlugin({ name: "s", version: "1.0.0", tools: [stuck] })] });
      const first = run.call("stuck", {});
      const second = run.call("stuck", {});
      await vi.advanceTimersByTimeAsync(100);
      expect(resultErrorCode(await first)).toBe("timeout");
      // The first call still holds its tool: the second waits out the 5 s grace, not forever.
      await vi.advanceTimersByTimeAsync(4_999);
      expect(started).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(started).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(100);
      expect(resultErrorCode(await second)).toBe("timeout");
      expect(run.activeCalls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps a timed-out serialized call that ignores its signal from overlapping the next call", async () => {
    let active = 0;
    let peak = 0;
    const stubborn = defineTool({
      name: "stubborn",
      tier: "exec",
      description: "Ignores its abort signal.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: false,
      timeoutMs: 50,
      run: async () => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 300));
        active -= 1;
        return "late";
      },
    });
    const run = createRun({ plugins: [definePlugin({ name: "s", version: "1.0.0", tools: [stubborn] })] });
    const first = await run.call("stubborn", {});
    expect(resultErrorCode(first)).toBe("timeout");
    await run.call("stubborn", {});
    expect(peak).toBe(1);
  });

  it("caps the text of a result, the note included, and says how much was shown", async () => {
    const { run } = await runWithCounter({ outputLimitBytes: 1000 });
    const result = await run.call("big", { bytes: 5000 });
    const textBytes = result.content.map((part) => (part.type === "text" ? Buffer.byteLength(part.text) : 0));
    expect(textBytes.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(1000);
    expect(resultText(result)).toContain(`[Output truncated: showed ${textBytes[0]} of 5000 bytes.`);
  });

  it("caps an error answered before the tool runs too, keeping its code", async () => {
    const { run } = await runWithCounter({ outputLimitBytes: 120 });
    const result = await run.call(`missing_${"x".repeat(500)}`, {});
    expect(resultErrorCode(result)).toBe("unknown_tool");
    const textBytes = result.content.reduce(
      (sum, part) => sum + (part.type === "text" ? Buffer.byteLength(part.text) : 0),
      0,
    );
    expect(textBytes).toBeLessThanOrEqual(120);
    expect(resultText(result)).toContain("[Output truncated: showed");
  });
});

describe("createRun: ctx.callTool", () => {
  it("re-enters dispatch with the caller's own ceiling", async () => {
    const { run, counter } = await runWithCounter();
    const asPlan = await run.call("relay", { tool: "bump", input: { by: 1 } }, { caller: PLAN_CALLER });
    expect(resultErrorCode(asPlan)).toBe("unknown_tool");
    expect(counter.count).toBe(0);
    expect(resultText(await run.call("relay", { tool: "bump", input: { by: 1 } }))).toContain("now 1");
  });

  it("validates nested input like a model call", async () => {
    const { run } = await runWithCounter();
    expect(resultText(await run.call("relay", { tool: "bump", input: { by: "x" } }))).toContain(
      "Field `by` must be number",
    );
  });

  it("refuses a serialized tool calling itself instead of deadlocking", async () => {
    const { run } = await runWithCounter();
    const result = await run.call("relay", { tool: "relay", input: { tool: "peek", input: {} } });
    expect(resultText(result)).toContain("cannot call itself");
    expect(resultText(result)).toContain("(invalid_input)");
  });
});

describe("createRun: write observers", () => {
  it("shows observers each written file once, however often the tool reported it", async () => {
    const seen: string[][] = [];
    const recorder = defineWriteObserver({
      name: "recorder",
      requires: [],
      observe: async (paths) => void seen.push([...paths]),
    });
    const twice = defineTool({
      name: "twice",
      tier: "write",
      description: "Reports one file twice.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async (_input, context) => {
        context.wrote(["/w/a.ts", "/w/b.ts"]);
        context.wrote(["/w/a.ts"]);
        return "wrote";
      },
    });
    const run = createRun({
      plugins: [definePlugin({ name: "w", version: "1.0.0", tools: [twice], observers: [recorder] })],
    });
    expect(resultText(await run.call("twice", {}))).toBe("wrote");
    expect(seen).toEqual([["/w/a.ts", "/w/b.ts"]]);
  });

  it("an observer's progress is the writing call's progress", async () => {
    const waiting = defineWriteObserver({
      name: "waiting",
      requires: [],
      observe: async (paths, context) => {
        context.progress({ message: `checking ${paths.join(",")}` });
        return undefined;
      },
    });
    const onProgress = vi.fn();
    const { run } = await runWithCounter({
      plugins: [examplePlugin, definePlugin({ name: "obs", version: "1.0.0", tools: [], observers: [waiting] })],
      onProgress,
    });
    const perCall = vi.fn();
    await run.call("bump", { by: 1, file: "/w/c.ts" }, { onProgress: perCall });
    expect(perCall).toHaveBeenCalledWith({ message: "checking /w/c.ts" });
    expect(onProgress).toHaveBeenCalledWith(
      expect.objectContaining({ tool: "bump", update: { message: "checking /w/c.ts" } }),
    );
  });

  it("appends what observers say after a call reported written files", async () => {
    const { run } = await runWithCounter();
    const result = await run.call("bump", { by: 3, file: "/w/a.ts" });
    expect(resultText(result)).toBe("now 3\nobserved /w/a.ts at 3");
    expect(resultText(await run.call("bump", { by: 1 }))).toBe("now 4");
  });

  it("adds a note when an observer fails or runs out of time, keeping the tool's answer", async () => {
    const slow = defineWriteObserver({ name: "slow", requires: [], observe: () => new Promise(() => undefined) });
    const broken = defineWriteObserver({
      name: "broken",
      requires: [],
      observe: async () => {
        throw new Error("boom");
      },
    });
    const plugin = definePlugin({ name: "obs", version: "1.0.0", tools: [], observers: [slow, broken] });
    const { run } = await runWithCounter({ plugins: [examplePlugin, plugin], observerTimeoutMs: 100 });
    const text = resultText(await run.call("bump", { by: 1, file: "/w/b.ts" }));
    expect(text).toContain("now 1");
    expect(text).toContain(
      "(Write observer `slow` could not finish: Write observer `slow` did not finish within 100 ms",
    );
    expect(text).toContain("(Write observer `broken` could not finish: boom)");
  });
});

describe("createRun: resources inside a call", () => {
  const sneaky = defineTool({
    name: "sneaky",
    tier: "read",
    description: "Asks for a resource it did not declare.",
    input: v.strictObject({}),
    requires: [],
    parallelSafe: true,
    run: async (_input, context) => String((context.resource as (key: unknown) => unknown)(Counter)),
  });
  const slowPeek = defineTool({
    name: "slow_peek",
    tier: "read",
    description: "Reads the counter after a pause.",
    input: v.strictObject({}),
    requires: [Counter],
    parallelSafe: true,
    run: async (_input, context) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return String(context.resource(Counter).count);
    },
  });
  const plugin = definePlugin({ name: "inside", version: "1.0.0", tools: [sneaky, slowPeek] });

  it("refuses, as a bug in the tool, a resource the tool did not declare", async () => {
    const { run } = await runWithCounter({ plugins: [examplePlugin, plugin] });
    const result = await run.call("sneaky", {});
    expect(resultErrorCode(result)).toBe("internal");
    expect(resultText(result)).toContain(
      "Tool `sneaky` asked for resource `example.counter` without declaring it in `requires`.",
    );
  });

  it("answers `unavailable` when the resource is detached during the call", async () => {
    const { run } = await runWithCounter({ plugins: [examplePlugin, plugin] });
    const pending = run.call("slow_peek", {});
    await run.detach(Counter);
    const result = await pending;
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toContain(
      "Resource `example.counter` was detached during the call. Try again once it is attached.",
    );
  });

  it("keeps an instance attached again under its key, and ignores detaching what is not attached", async () => {
    const dispose = vi.fn();
    const run = createRun({ plugins: [examplePlugin] });
    const instance = { value: { count: 3 }, dispose };
    await run.attach(Counter, instance);
    const changes = vi.fn();
    run.onToolsChanged(changes);
    await run.attach(Counter, instance);
    expect(dispose).not.toHaveBeenCalled();
    await run.detach(Clock);
    expect(changes).toHaveBeenCalledTimes(1);
    expect(run.resource(Counter)).toEqual({ count: 3 });
    expect(run.resource(Clock)).toBeUndefined();
  });
});

describe("createRun: progress", () => {
  it("gives each notice to the run's listener, with the run and tool, and to the call's own", async () => {
    const step = defineTool({
      name: "step",
      tier: "read",
      description: "Reports one step.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async (_input, context) => {
        context.progress({ message: "halfway", progress: 1, total: 2 });
        return "ok";
      },
    });
    const runEvents: unknown[] = [];
    const run = createRun({
      id: "p1",
      plugins: [definePlugin({ name: "p", version: "1.0.0", tools: [step] })],
      onProgress: (event) => runEvents.push(event),
    });
    const callEvents: unknown[] = [];
    expect(resultText(await run.call("step", {}, { onProgress: (update) => callEvents.push(update) }))).toBe("ok");
    expect(runEvents).toEqual([{ runId: "p1", tool: "step", update: { message: "halfway", progress: 1, total: 2 } }]);
    expect(callEvents).toEqual([{ message: "halfway", progress: 1, total: 2 }]);
    // Nobody listening is fine too.
    expect(
      resultText(
        await createRun({ plugins: [definePlugin({ name: "p", version: "1.0.0", tools: [step] })] }).call("step", {}),
      ),
    ).toBe("ok");
  });

  it("tells the tool which run and caller it serves", async () => {
    const seen: unknown[] = [];
    const who = defineTool({
      name: "who",
      tier: "read",
      description: "Reports the run it serves.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async (_input, context) => {
        seen.push(context.run);
        return "ok";
      },
    });
    const run = createRun({ id: "w1", plugins: [definePlugin({ name: "w", version: "1.0.0", tools: [who] })] });
    await run.call("who", {}, { caller: PLAN_CALLER });
    expect(seen).toEqual([{ id: "w1", caller: PLAN_CALLER }]);
  });
});

describe("createRun: describeResource", () => {
  it("returns a resource's own detail, undefined without one, and a note when it throws", async () => {
    const run = createRun({ plugins: [examplePlugin] });
    expect(await run.describeResource(Counter)).toBeUndefined();
    await run.attach(Counter, { value: { count: 0 }, describe: () => "counting from 0" });
    expect(await run.describeResource(Counter)).toBe("counting from 0");
    await run.attach(Counter, {
      value: { count: 0 },
      describe: () => {
        throw new Error("probe failed");
      },
    });
    expect(await run.describeResource(Counter)).toBe("could not describe itself: probe failed");
  });
});

const neverStops = defineTool({
  name: "never_stops",
  tier: "read",
  description: "Awaits a promise that never settles, ignoring its signal.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: () => new Promise(() => undefined),
});
const stuckPlugin = definePlugin({ name: "stuck", version: "1.0.0", tools: [neverStops] });

describe("createRun: close", () => {
  it("refuses a call after close without running it, even of a tool that needs no resource", async () => {
    const run = createRun({ plugins: [examplePlugin] });
    await run.close();
    const result = await run.call("big", { bytes: 1 });
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toMatch(/Run `.+` is closed; tool `big` cannot be called\./);
  });

  it("refuses to attach a resource after close", async () => {
    const run = createRun({ plugins: [examplePlugin], id: "r1" });
    await run.close();
    await expect(run.attach(Counter, { value: { count: 0 } })).rejects.toThrow(
      "Run `r1` is closed; resource `example.counter` cannot be attached.",
    );
    await expect(run.attach(Counter, { value: { count: 0 } })).rejects.toMatchObject({ code: "unavailable" });
    expect(run.isAttached(Counter)).toBe(false);
  });

  it("waits only `graceMs` for a call that never stops, disposes the resources, and counts the call as still active", async () => {
    const dispose = vi.fn();
    const run = createRun({ plugins: [examplePlugin, stuckPlugin], defaultTimeoutMs: 60_000 });
    await run.attach(Counter, { value: { count: 0 }, dispose });
    const pending = run.call("never_stops", {});
    await vi.waitFor(() => expect(run.activeCalls).toBe(1));
    const started = performance.now();
    await run.close({ graceMs: 50 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(resultErrorCode(await pending)).toBe("cancelled");
    expect(run.activeCalls).toBe(1);
  });

  it("bounds each resource's dispose by `graceMs` too", async () => {
    const run = createRun({ plugins: [examplePlugin] });
    await run.attach(Counter, { value: { count: 0 }, dispose: () => new Promise(() => undefined) });
    const started = performance.now();
    await run.close({ graceMs: 50 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(run.isAttached(Counter)).toBe(false);
  });

  it("waits 5 s by default for aborted calls before disposing", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const dispose = vi.fn();
      const run = createRun({ plugins: [examplePlugin, stuckPlugin] });
      await run.attach(Counter, { value: { count: 0 }, dispose });
      void run.call("never_stops", {});
      await vi.waitFor(() => expect(run.activeCalls).toBe(1));
      let closed = false;
      void run.close().then(() => (closed = true));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(dispose).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(dispose).toHaveBeenCalledTimes(1);
      expect(closed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("makes a second close wait for the first one to finish disposing", async () => {
    let disposed = false;
    const run = createRun({ plugins: [examplePlugin] });
    await run.attach(Counter, {
      value: { count: 0 },
      dispose: () => new Promise<void>((resolve) => setTimeout(() => resolve(void (disposed = true)), 50)),
    });
    void run.close();
    await run.close();
    expect(disposed).toBe(true);
  });

  it("leaves no timer behind once closed, whether its calls stopped or not", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const run = createRun({ plugins: [examplePlugin, stuckPlugin] });
      await run.attach(Counter, { value: { count: 0 }, dispose: async () => undefined });
      expect(resultText(await run.call("peek", {}))).toBe("count=0");
      void run.call("never_stops", {});
      await vi.waitFor(() => expect(run.activeCalls).toBe(1));
      const launched = run.call("launch", { ms: 10 });
      await vi.advanceTimersByTimeAsync(10);
      expect(resultText(await launched)).toBe("done");
      const closed = run.close({ graceMs: 20 });
      await vi.advanceTimersByTimeAsync(20);
      await closed;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("aborts running calls, disposes every resource once, and refuses later calls", async () => {
    const dispose = vi.fn();
    const run = createRun({ plugins: [examplePlugin], defaultTimeoutMs: 60_000 });
    await run.attach(Counter, { value: { count: 0 }, dispose });
    const pending = run.call("launch", { ms: 30_000 });
    await run.close();
    await run.close();
    expect(resultErrorCode(await pending)).toBe("cancelled");
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(resultErrorCode(await run.call("peek", {}))).toBe("unavailable");
  });

  it("finishes closing even when a resource hangs while disposing", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const run = createRun({ plugins: [examplePlugin] });
      const other = vi.fn();
      await run.attach(Counter, { value: { count: 0 }, dispose: () => new Promise(() => undefined) });
      await run.attach(Clock, { value: { now: () => 0 }, dispose: other });
      const closed = run.close();
      await vi.advanceTimersByTimeAsync(10_000);
      await closed;
      expect(other).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("disposes the previous instance when a resource is replaced", async () => {
    const first = vi.fn();
    const run = createRun({ plugins: [examplePlugin] });
    await run.attach(Counter, { value: { count: 1 }, dispose: first });
    await run.attach(Counter, { value: { count: 2 } });
    expect(first).toHaveBeenCalledTimes(1);
    expect(resultText(await run.call("peek", {}))).toBe("count=2");
  });
});
