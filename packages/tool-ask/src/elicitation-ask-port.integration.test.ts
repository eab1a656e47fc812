import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpClientSession } from "@runbound/runner-adapter/mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createElicitationAskPort } from "./elicitation-ask-port.js";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "mcp-ask-server.mjs");
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

// The CLI hands the session's `elicit` to the port as it is; this only has to type-check.
export const wiring = (session: McpClientSession) => createElicitationAskPort(session.elicit);

type Answer = (request: ElicitRequest["params"], signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

/** Start the fixture server as a child process and connect the official client, answering elicitations with `answer`. */
async function connect(answer: Answer | undefined, env: Record<string, string> = {}) {
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: answer === undefined ? {} : { elicitation: {} } },
  );
  clients.push(client);
  const asked: Array<ElicitRequest["params"]> = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      asked.push(request.params);
      return answer(request.params, extra.signal);
    });
  }
  const toolsChanged = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  if (answer !== undefined) await toolsChanged;
  return { client, asked, stderr: () => stderr };
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as Array<{ text: string }>).map((part) => part.text).join("\n");
}

const options = [{ label: "Postgres", description: "The one in production." }, { label: "SQLite" }, { label: "Redis" }];

describe("createElicitationAskPort with the official MCP client, over serveRunOverMcp", () => {
  it("asks a single choice as a titled enum and answers the chosen number and label", async () => {
    const { client, asked } = await connect(() => ({ action: "accept", content: { choice: "2" } }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("ask_user");
    const result = await client.callTool({
      name: "ask_user",
      arguments: {
        question: "Which database?",
        context: "Tests need one.",
        options,
        allow_free_text: false,
        multi_select: false,
      },
    });
    expect(text(result)).toBe("The operator chose 2) SQLite.");
    expect(asked[0]).toMatchObject({
      mode: "form",
      message: "Which database?\n\nTests need one.\n\nDecline to skip this question.",
      requestedSchema: {
        type: "object",
        properties: {
          choice: {
            type: "string",
            title: "Choose one",
            oneOf: [
              { const: "1", title: "1) Postgres — The one in production." },
              { const: "2", title: "2) SQLite" },
              { const: "3", title: "3) Redis" },
            ],
          },
        },
        required: ["choice"],
      },
    });
  });

  it("asks a multi-select with free text as an array of titled enums and a text field", async () => {
    const { client, asked } = await connect(() => ({
      action: "accept",
      content: { choices: ["1", "3"], answer: "and a queue" },
    }));
    const result = await client.callTool({
      name: "ask_user",
      arguments: { question: "Which stores?", options, allow_free_text: true, multi_select: true },
    });
    expect(text(result)).toBe('The operator chose 1) Postgres; 3) Redis and wrote: "and a queue".');
    expect((asked[0] as { requestedSchema?: unknown }).requestedSchema).toEqual({
      type: "object",
      properties: {
        choices: {
          type: "array",
          title: "Choose one or more",
          items: {
            anyOf: [
              { const: "1", title: "1) Postgres — The one in production." },
              { const: "2", title: "2) SQLite" },
              { const: "3", title: "3) Redis" },
            ],
          },
        },
        answer: { type: "string", title: "Or answer in your own words" },
      },
    });
  });

  it("asks again, saying why, after a form submitted with nothing chosen", async () => {
    const replies: ElicitResult[] = [
      { action: "accept", content: {} },
      { action: "accept", content: { answer: "MySQL" } },
    ];
    const { client, asked } = await connect(() => replies.shift()!);
    const result = await client.callTool({
      name: "ask_user",
      arguments: { question: "Which database?", options, allow_free_text: true, multi_select: false },
    });
    expect(text(result)).toBe('The operator wrote: "MySQL".');
    expect(asked.map((request) => request.message.split("\n")[0])).toEqual([
      "Which database?",
      "Nothing was chosen; pick an option by number or label, or skip. Please answer again.",
    ]);
  });

  it("answers decline and cancel as skipped, and a repeated question without asking the client", async () => {
    const replies: ElicitResult[] = [{ action: "decline" }, { action: "cancel" }];
    const { client, asked } = await connect(() => replies.shift()!);
    const question = { options, allow_free_text: false, multi_select: false };
    const declined = await client.callTool({
      name: "ask_user",
      arguments: { question: "Which database?", ...question },
    });
    expect(declined.isError).toBe(false);
    expect(text(declined)).toContain(
      "The operator skipped this question (the user declined the form). State in your next message the assumption you proceed on",
    );
    const cancelled = await client.callTool({ name: "ask_user", arguments: { question: "Which cache?", ...question } });
    expect(text(cancelled)).toContain("(the user dismissed the form)");
    const repeated = await client.callTool({
      name: "ask_user",
      arguments: { question: "Which database?", ...question },
    });
    expect(text(repeated)).toContain("Not asked again");
    expect(asked).toHaveLength(2);
  });

  it("asks permission on the same card: always is remembered for the tool, deny denies", async () => {
    const replies: ElicitResult[] = [{ action: "accept", content: { choice: "2" } }];
    const { client, asked } = await connect(() => replies.shift()!);
    expect(text(await client.callTool({ name: "save", arguments: { text: "a" } }))).toBe("saved a");
    expect(text(await client.callTool({ name: "save", arguments: { text: "b" } }))).toBe("saved b");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toBe('May `save` (write) run for main?\n\nInput: {"text":"a"}\n\nDecline to deny.');
    const denying = await connect(() => ({ action: "accept", content: { choice: "3" } }));
    const denied = await denying.client.callTool({ name: "save", arguments: { text: "c" } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("was denied");
  });

  it("withdraws the form on the client's side when the call is cancelled or the answer times out", async () => {
    const signals: AbortSignal[] = [];
    // The SDK's client ignores a cancellation of request id 0 (modelcontextprotocol/typescript-sdk#2283),
    // the id of the server's first request: that one is answered, so the withdrawn forms have ids 1 and 2.
    const answerFirstOnly: Answer = (_request, signal) => {
      signals.push(signal);
      return signals.length === 1 ? { action: "decline" } : new Promise(() => undefined);
    };
    const { client, asked } = await connect(answerFirstOnly, { ASK_TIMEOUT_MS: "300" });
    await client.callTool({
      name: "ask_user",
      arguments: { question: "Ready?", options, allow_free_text: false, multi_select: false },
    });
    const timedOut = await client.callTool({
      name: "ask_user",
      arguments: { question: "Still there?", options, allow_free_text: false, multi_select: false },
    });
    expect(timedOut.isError).toBe(true);
    expect(text(timedOut)).toBe(
      "Error (timeout): Nobody answered the question `Still there?` within 300 ms. State in your next message the assumption you proceed on, then continue; do not ask this question again in this run.",
    );
    await vi.waitFor(() => expect(signals[1]?.aborted).toBe(true));
    const controller = new AbortController();
    const cancelled = client.callTool(
      { name: "ask_user", arguments: { question: "Deploy?", options, allow_free_text: false, multi_select: false } },
      undefined,
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(asked).toHaveLength(3));
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    await vi.waitFor(() => expect(signals[2]?.aborted).toBe(true));
  });

  it("closes the run when the client leaves with a card pending", async () => {
    const { client, asked, stderr } = await connect(() => new Promise(() => undefined));
    void client
      .callTool({
        name: "ask_user",
        arguments: { question: "Deploy?", options, allow_free_text: false, multi_select: false },
      })
      .catch(() => undefined);
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    await client.close();
    await vi.waitFor(() => expect(stderr()).toContain("closed"), { timeout: 10_000 });
  });

  it("attaches no port for a client without elicitation: ask_user is absent and approvals are denied at once", async () => {
    const { client } = await connect(undefined);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["save"]);
    const denied = await client.callTool({ name: "save", arguments: { text: "a" } });
    expect(text(denied)).toContain("no approver is connected to this run");
  });
});
