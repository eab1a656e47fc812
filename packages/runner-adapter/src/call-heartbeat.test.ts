import { definePlugin, defineTool, resultText, type ProgressUpdate } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { createRun } from "./create-run.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Silent for a while, then says what it does, then silent again.
const slow = defineTool({
  name: "slow",
  tier: "read",
  description: "Waits, reports one step, waits again.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async (_input, context) => {
    await wait(600);
    context.progress({ message: "Compiling the program.", progress: 1, total: 3 });
    await wait(600);
    return "done";
  },
});

const relay = defineTool({
  name: "relay",
  tier: "read",
  description: "Calls slow.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async (_input, context) => resultText(await context.callTool("slow", {})),
});

const plugin = definePlugin({ name: "heartbeat-test", version: "1.0.0", tools: [slow, relay] });
const timing = { firstAfterMs: 60, everyMs: 100 };

async function noticesOf(
  name: string,
  heartbeat: typeof timing | false = timing,
): Promise<{ notices: Array<ProgressUpdate & { at: number }>; answeredAt: number }> {
  const run = createRun({ plugins: [plugin], heartbeat });
  const started = Date.now();
  const notices: Array<ProgressUpdate & { at: number }> = [];
  const result = await run.call(
    name,
    {},
    { onProgress: (update) => notices.push({ ...update, at: Date.now() - started }) },
  );
  expect(resultText(result)).toBe("done");
  const answeredAt = Date.now() - started;
  await wait(300);
  await run.close();
  return { notices, answeredAt };
}

describe("a long call's heartbeat", () => {
  it("speaks after a first silence, repeats the last notice with the time elapsed, and stops with the answer", async () => {
    const { notices, answeredAt } = await noticesOf("slow");
    const before = notices.filter((notice) => notice.at < 600);
    expect(before.length).toBeGreaterThanOrEqual(1);
    expect(before[0]!.message).toBe("Tool `slow` is running (0 s so far)");
    const own = notices.findIndex((notice) => notice.message === "Compiling the program.");
    expect(own).toBeGreaterThan(0);
    const after = notices.slice(own + 1);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after[0]).toMatchObject({
      message: expect.stringMatching(/^Compiling the program \([01] s so far\)$/),
      progress: 1,
      total: 3,
    });
    // Never a silence longer than the interval (with slack for a busy machine; the tool is silent for 600 ms at a time), and nothing after the answer.
    const times = [0, ...notices.map((notice) => notice.at), answeredAt];
    for (let index = 1; index < times.length; index += 1)
      expect(times[index]! - times[index - 1]!).toBeLessThan(timing.everyMs + 300);
    expect(notices.every((notice) => notice.at <= answeredAt)).toBe(true);
  });

  it("beats once per request: a nested ctx.callTool call adds none of its own", async () => {
    const { notices } = await noticesOf("relay");
    expect(notices.some((notice) => notice.message.startsWith("Tool `slow` is running"))).toBe(false);
    expect(notices.some((notice) => notice.message.startsWith("Tool `relay` is running"))).toBe(true);
  });

  it("is silent when turned off", async () => {
    const { notices } = await noticesOf("slow", false);
    expect(notices.map((notice) => notice.message)).toEqual(["Compiling the program."]);
  });
});
