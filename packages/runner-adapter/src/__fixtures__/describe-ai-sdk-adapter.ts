import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { askFor, type ApprovalRequest, type Approver } from "../approval.js";
import { PLAN_CALLER } from "../callers.js";
import { createRun } from "../create-run.js";
import { toAiSdkTools } from "../ai-sdk/to-ai-sdk-tools.js";
import { exportInputSchema } from "../schema/export-input-schema.js";
import { bump, Counter, examplePlugin, peek, relay } from "./example-plugin.js";

/** One scripted answer of the mock model: the tool calls it makes, or its closing text. */
type ModelAnswer = { calls: Array<{ id: string; tool: string; input: unknown }> } | { text: string };

/** What the suite reads of a mock model: the options of each `doGenerate` call. */
export interface RecordingModel {
  doGenerateCalls: Array<{ prompt: unknown[]; tools?: unknown[] }>;
}

/** The pieces of one AI SDK major the suite drives, handed in by that major's test file. */
export interface AiSdkUnderTest {
  /** `generateText` of that major (both majors take `model`, `tools`, `prompt` or `messages`, `stopWhen`). */
  generateText(options: { model: RecordingModel; tools: unknown; prompt?: string; messages?: unknown[]; stopWhen: unknown; abortSignal?: AbortSignal }): Promise<GenerateOutcome>;
  stepCountIs(count: number): unknown;
  /** A mock language model of that major's specification, answering `doGenerate` with `answer(step)`. */
  mockModel(doGenerate: () => Promise<unknown>): RecordingModel;
  /** The messages a result adds to the conversation (`response.messages` in ai 6, `responseMessages` in ai 7). */
  responseMessages(outcome: GenerateOutcome): unknown[];
}

interface ContentPart {
  type: string;
  approvalId?: string;
  toolCall?: { toolName: string };
  error?: unknown;
}

/** What the suite reads of a `generateText` result. */
export interface GenerateOutcome {
  text: string;
  content: ContentPart[];
  steps: Array<{ content: ContentPart[]; toolResults: Array<{ toolName: string; output: unknown }> }>;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that gives `answers` in order, one per step. */
function scriptedModel(sdk: AiSdkUnderTest, answers: ModelAnswer[]): RecordingModel {
  let step = 0;
  return sdk.mockModel(async () => {
    const answer = answers[Math.min(step, answers.length - 1)]!;
    step += 1;
    if ("text" in answer) return { content: [{ type: "text", text: answer.text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    return {
      content: answer.calls.map((call) => ({ type: "tool-call", toolCallId: call.id, toolName: call.tool, input: JSON.stringify(call.input) })),
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage,
      warnings: [],
    };
  });
}

function callingThenDone(toolName: string, input: unknown): ModelAnswer[] {
  return [{ calls: [{ id: "call-1", tool: toolName, input }] }, { text: "done" }];
}

/** An approver that records each request and answers `answer`. */
function recordingApprover(answer: boolean): Approver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    approve: async (request: ApprovalRequest) => {
      asked.push(request.tool.name);
      return answer;
    },
  };
}

const mixedFailure = defineTool({
  name: "mixed_failure",
  tier: "read",
  description: "Fails with two lines of text around an image.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => ({
    isError: true,
    content: [
      { type: "text", text: "first line" },
      { type: "image", data: "aGk=", mimeType: "image/png" },
      { type: "text", text: "second line" },
    ],
  }),
});

const chart = defineTool({
  name: "chart",
  tier: "read",
  description: "Answers a caption and an image.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => ({ content: [{ type: "text", text: "a chart" }, { type: "image", data: "aGk=", mimeType: "image/png" }] }),
});

/** Resolves with the code of the abort that stopped it; its own budget is the fallback. */
const stopped: { code?: Promise<string> } = {};
const waitForAbort = defineTool({
  name: "wait_for_abort",
  tier: "read",
  description: "Waits until its call is aborted.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  timeoutMs: 2_000,
  run: (_input, context) => {
    stopped.code = new Promise((resolve) => context.signal.addEventListener("abort", () => resolve((context.signal.reason as { code?: string }).code ?? "none"), { once: true }));
    return stopped.code;
  },
});

const counterPlugin = definePlugin({ name: "ai-sdk-counter", version: "1.0.0", tools: [peek, bump, mixedFailure, chart, waitForAbort] });
// `relay` takes any record as its nested input, which openai-strict cannot express: kept out of the strict test.
const relayingPlugin = definePlugin({ name: "ai-sdk-relaying", version: "1.0.0", tools: [peek, bump, relay] });

async function counterRun(settings: { policy?: ReturnType<typeof askFor>; approver?: Approver; relaying?: boolean } = {}) {
  const run = createRun({
    plugins: [settings.relaying === true ? relayingPlugin : counterPlugin],
    ...(settings.policy === undefined ? {} : { approvalPolicy: settings.policy }),
    ...(settings.approver === undefined ? {} : { approver: settings.approver }),
  });
  const counter = { count: 0 };
  await run.attach(Counter, { value: counter });
  return { run, counter };
}

function toolDefinition(model: RecordingModel, name: string): Record<string, unknown> {
  const tools = (model.doGenerateCalls[0]!.tools ?? []) as Array<Record<string, unknown>>;
  return tools.find((definition) => definition["name"] === name)!;
}

function toolResultOutputs(model: RecordingModel, call: number): unknown[] {
  const prompt = model.doGenerateCalls[call]!.prompt as Array<{ role: string; content: Array<{ type: string; output?: unknown }> }>;
  return prompt.filter((message) => message.role === "tool").flatMap((message) => message.content.filter((part) => part.type === "tool-result").map((part) => part.output));
}

/**
 * The adapter's behaviour under one AI SDK major, run by one test file per major against that
 * major's real `generateText` and mock model.
 */
export function describeAiSdkAdapter(major: string, sdk: AiSdkUnderTest): void {
  const loop = (model: RecordingModel, tools: unknown, more: { prompt?: string; messages?: unknown[] } = { prompt: "go" }) =>
    sdk.generateText({ model, tools, ...more, stopWhen: sdk.stepCountIs(4) });

  /** The first turn ends at the approval request; the second carries the user's answer to it. */
  async function answerApproval(tools: unknown, first: GenerateOutcome, answer: { approved: boolean; reason?: string }) {
    const request = first.content.find((part) => part.type === "tool-approval-request")!;
    const model = scriptedModel(sdk, [{ text: "done" }]);
    const messages = [
      { role: "user", content: "go" },
      ...sdk.responseMessages(first),
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, ...answer }] },
    ];
    return { model, outcome: await loop(model, tools, { messages }) };
  }

  describe(`toAiSdkTools with ai ${major}`, () => {
    it("lets a model call a run's tool through generateText", async () => {
      const { run, counter } = await counterRun();
      const result = await loop(scriptedModel(sdk, callingThenDone("bump", { by: 2 })), toAiSdkTools(run));
      expect(counter.count).toBe(2);
      const toolResult = result.steps[0]!.toolResults[0]!;
      expect(toolResult.toolName).toBe("bump");
      expect(toolResult.output).toEqual({ content: [{ type: "text", text: "now 2" }] });
      expect(result.text).toBe("done");
    });

    it("rejects invalid input before the tool runs", async () => {
      const { run, counter } = await counterRun();
      const result = await loop(scriptedModel(sdk, callingThenDone("bump", { by: "two" })), toAiSdkTools(run));
      expect(counter.count).toBe(0);
      const errors = result.steps[0]!.content.filter((part) => part.type === "tool-error");
      expect(errors).toHaveLength(1);
      expect(String(errors[0]!.error)).toContain("Field `by` must be number");
    });

    it("exposes only the caller's visible tools", async () => {
      const run = createRun({ plugins: [examplePlugin] });
      await run.attach(Counter, { value: { count: 0 } });
      expect(Object.keys(toAiSdkTools(run, { caller: PLAN_CALLER })).sort()).toEqual(["big", "fail", "hang", "peek", "relay"]);
    });

    it("gives the model an error result as one error text, its text parts on separate lines", async () => {
      const { run } = await counterRun();
      const model = scriptedModel(sdk, callingThenDone("mixed_failure", {}));
      await loop(model, toAiSdkTools(run));
      expect(toolResultOutputs(model, 1)).toEqual([{ type: "error-text", value: "first line\nsecond line" }]);
    });

    it("gives the model an image of a result as file data next to its text", async () => {
      const { run } = await counterRun();
      const model = scriptedModel(sdk, callingThenDone("chart", {}));
      await loop(model, toAiSdkTools(run));
      const [output] = toolResultOutputs(model, 1) as Array<{ type: string; value: Array<Record<string, unknown>> }>;
      expect(output!.type).toBe("content");
      expect(output!.value[0]).toEqual({ type: "text", text: "a chart" });
      // ai 6 passes `file-data` on as it is; ai 7 turns it into its tagged `file` part.
      expect(["file-data", "file"]).toContain(output!.value[1]!["type"]);
      expect(JSON.stringify(output!.value[1])).toContain("aGk=");
      expect(output!.value[1]).toMatchObject({ mediaType: "image/png" });
    });

    it("calls the run as the chosen caller", async () => {
      const callers: string[] = [];
      const run = createRun({ plugins: [counterPlugin], approvalPolicy: (request) => (callers.push(request.caller.name), "allow") });
      await run.attach(Counter, { value: { count: 0 } });
      await loop(scriptedModel(sdk, callingThenDone("peek", {})), toAiSdkTools(run, { caller: { name: "reviewer", ceiling: "read" } }));
      expect(callers).toEqual(["reviewer"]);
    });

    it("cancels the run's call when generateText is aborted", async () => {
      const { run } = await counterRun();
      const controller = new AbortController();
      const model = scriptedModel(sdk, callingThenDone("wait_for_abort", {}));
      const generating = sdk.generateText({ model, tools: toAiSdkTools(run), prompt: "go", stopWhen: sdk.stepCountIs(2), abortSignal: controller.signal }).catch(() => undefined);
      await expect.poll(() => stopped.code !== undefined).toBe(true);
      controller.abort();
      expect(await stopped.code).toBe("cancelled");
      await generating;
    });

    it("sends the faithful schema without a strict flag by default", async () => {
      const { run } = await counterRun();
      const model = scriptedModel(sdk, callingThenDone("peek", {}));
      await loop(model, toAiSdkTools(run));
      const definition = toolDefinition(model, "bump");
      expect(definition["strict"]).toBeUndefined();
      expect(definition["inputSchema"]).toMatchObject({ required: ["by"], properties: { file: { type: "string" } } });
    });

    it("under openai-strict, marks every tool strict with a closed, all-required schema, and takes null for an absent optional", async () => {
      const { run, counter } = await counterRun();
      const model = scriptedModel(sdk, callingThenDone("bump", { by: 2, file: null }));
      const result = await loop(model, toAiSdkTools(run, { profile: "openai-strict" }));
      for (const name of ["peek", "bump"]) expect(toolDefinition(model, name)["strict"]).toBe(true);
      expect(toolDefinition(model, "bump")["inputSchema"]).toMatchObject({
        additionalProperties: false,
        required: ["by", "file"],
        properties: { file: { anyOf: [{ type: "string" }, { type: "null" }] } },
      });
      // Had `file: null` reached the tool as a file name, the write observer would have added its note.
      expect(counter.count).toBe(2);
      expect(result.steps[0]!.toolResults[0]!.output).toEqual({ content: [{ type: "text", text: "now 2" }] });
    });

    it("under openai-strict, a tool strict mode cannot express gets its faithful json schema without the strict flag", async () => {
      const { run } = await counterRun({ relaying: true });
      const model = scriptedModel(sdk, callingThenDone("peek", {}));
      await loop(model, toAiSdkTools(run, { profile: "openai-strict" }));
      expect(toolDefinition(model, "peek")["strict"]).toBe(true);
      const relayDefinition = toolDefinition(model, "relay");
      expect(relayDefinition["strict"]).toBeUndefined();
      expect(relayDefinition["inputSchema"]).toEqual(exportInputSchema(run.visibleTools().find((tool) => tool.name === "relay")!, "json"));
    });

    it("without needsApproval, a call the policy asks about is denied when the run has no approver", async () => {
      const { run, counter } = await counterRun({ policy: askFor(["write"]) });
      const result = await loop(scriptedModel(sdk, callingThenDone("bump", { by: 2 })), toAiSdkTools(run));
      expect(counter.count).toBe(0);
      expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(false);
      expect(JSON.stringify(result.steps[0]!.toolResults[0]!.output)).toContain("no approver is connected");
    });

    it("without needsApproval, a call approved in the AI SDK's own flow is still asked about by the run", async () => {
      const approver = recordingApprover(false);
      const { run, counter } = await counterRun({ policy: askFor(["write"]), approver });
      const model = scriptedModel(sdk, [{ text: "done" }]);
      const messages = [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "call-1", toolName: "bump", input: { by: 2 } }, { type: "tool-approval-request", approvalId: "approval-1", toolCallId: "call-1" }] },
        { role: "tool", content: [{ type: "tool-approval-response", approvalId: "approval-1", approved: true }] },
      ];
      await loop(model, toAiSdkTools(run), { messages });
      // ai 6 refuses the replayed approval itself (it asks the tool's `needsApproval` again); ai 7
      // executes it, and the run's approver, who says no, is asked: either way the call does not run.
      expect(counter.count).toBe(0);
      expect(toolResultOutputs(model, 0)).toHaveLength(1);
    });

    it("with needsApproval, asks the AI SDK's user, and runs an approved call once without asking the run's approver", async () => {
      const policy = askFor(["write"]);
      const approver = recordingApprover(false);
      const { run, counter } = await counterRun({ policy, approver });
      const tools = toAiSdkTools(run, { needsApproval: policy });
      const first = await loop(scriptedModel(sdk, callingThenDone("bump", { by: 2 })), tools);
      const request = first.content.find((part) => part.type === "tool-approval-request");
      expect(request?.toolCall?.toolName).toBe("bump");
      expect(counter.count).toBe(0);

      const { model, outcome } = await answerApproval(tools, first, { approved: true });
      expect(counter.count).toBe(2);
      expect(approver.asked).toEqual([]);
      expect(toolResultOutputs(model, 0)).toEqual([{ type: "content", value: [{ type: "text", text: "now 2" }] }]);
      expect(outcome.text).toBe("done");
    });

    it("with needsApproval, runs an approved call at most once, however often the same messages are given again", async () => {
      const policy = askFor(["write"]);
      const { run, counter } = await counterRun({ policy });
      const tools = toAiSdkTools(run, { needsApproval: policy });
      const first = await loop(scriptedModel(sdk, callingThenDone("bump", { by: 2 })), tools);
      await answerApproval(tools, first, { approved: true });
      expect(counter.count).toBe(2);
      // The same conversation replayed (a retry, a reloaded chat), and with tools built again for the next step.
      const { model } = await answerApproval(tools, first, { approved: true });
      await answerApproval(toAiSdkTools(run, { needsApproval: policy }), first, { approved: true });
      expect(counter.count).toBe(2);
      expect(toolResultOutputs(model, 0)).toEqual([{ type: "error-text", value: expect.stringContaining("already ran once on its approval in this run, and an approval covers one run") }]);
    });

    it("with needsApproval, gives the model the user's denial and never runs the call", async () => {
      const policy = askFor(["write"]);
      const approver = recordingApprover(true);
      const { run, counter } = await counterRun({ policy, approver });
      const tools = toAiSdkTools(run, { needsApproval: policy });
      const first = await loop(scriptedModel(sdk, callingThenDone("bump", { by: 2 })), tools);
      const { model } = await answerApproval(tools, first, { approved: false, reason: "Not on a Friday." });
      expect(counter.count).toBe(0);
      expect(approver.asked).toEqual([]);
      expect(toolResultOutputs(model, 0)).toEqual([{ type: "execution-denied", reason: "Not on a Friday." }]);
    });

    it("with needsApproval, runs a call the policy allows without an approval request", async () => {
      const policy = askFor(["write"]);
      const { run } = await counterRun({ policy });
      const result = await loop(scriptedModel(sdk, callingThenDone("peek", { label: "n" })), toAiSdkTools(run, { needsApproval: policy }));
      expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(false);
      expect(result.steps[0]!.toolResults[0]!.output).toEqual({ content: [{ type: "text", text: "n=0" }] });
    });

    it("an approved call does not pass its approval to the tools it calls through ctx.callTool", async () => {
      const policy = askFor(["read", "write"]);
      const approver = recordingApprover(false);
      const { run, counter } = await counterRun({ policy, approver, relaying: true });
      const tools = toAiSdkTools(run, { needsApproval: policy });
      const first = await loop(scriptedModel(sdk, callingThenDone("relay", { tool: "bump", input: { by: 2 } })), tools);
      const { model } = await answerApproval(tools, first, { approved: true });
      expect(approver.asked).toEqual(["bump"]);
      expect(counter.count).toBe(0);
      expect(toolResultOutputs(model, 0)).toEqual([{ type: "error-text", value: expect.stringContaining("Calling `bump` was denied") }]);
    });
  });
}
