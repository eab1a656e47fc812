import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Counter, examplePlugin } from "../__fixtures__/example-plugin.js";
import { PLAN_CALLER } from "../callers.js";
import { createRun } from "../create-run.js";
import { toAiSdkTools } from "./to-ai-sdk-tools.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls one tool with `input`, then answers "done". */
function modelCalling(toolName: string, input: string) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step += 1;
      if (step === 1) {
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName, input }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
}

async function counterRun() {
  const run = createRun({ plugins: [examplePlugin] });
  const counter = { count: 0 };
  await run.attach(Counter, { value: counter });
  return { run, counter };
}

describe("toAiSdkTools", () => {
  it("lets a model call a run's tool through generateText", async () => {
    const { run, counter } = await counterRun();
    const result = await generateText({
      model: modelCalling("bump", JSON.stringify({ by: 2 })),
      tools: toAiSdkTools(run),
      prompt: "bump it",
      stopWhen: stepCountIs(3),
    });
    expect(counter.count).toBe(2);
    const toolResult = result.steps[0]!.toolResults[0]!;
    expect(toolResult.toolName).toBe("bump");
    expect(toolResult.output).toEqual({ content: [{ type: "text", text: "now 2" }] });
    expect(result.text).toBe("done");
  });

  it("rejects invalid input before the tool runs", async () => {
    const { run, counter } = await counterRun();
    const result = await generateText({
      model: modelCalling("bump", JSON.stringify({ by: "two" })),
      tools: toAiSdkTools(run),
      prompt: "bump it",
      stopWhen: stepCountIs(3),
    });
    expect(counter.count).toBe(0);
    const errors = result.steps[0]!.content.filter((part) => part.type === "tool-error");
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as { error: unknown }).error)).toContain("Field `by` must be number");
  });

  it("exposes only the caller's visible tools", async () => {
    const { run } = await counterRun();
    expect(Object.keys(toAiSdkTools(run, { caller: PLAN_CALLER })).sort()).toEqual(["big", "fail", "hang", "peek", "relay"]);
  });
});
