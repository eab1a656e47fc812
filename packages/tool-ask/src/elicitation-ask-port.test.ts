import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createElicitationAskPort, type Elicit } from "./elicitation-ask-port.js";
import { sampleCard } from "./test-support/cards.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real SDK server and client in memory; the client answers each form with the next of `replies`. */
async function elicitThroughSdk(replies: Array<ElicitResult | Error>): Promise<{ elicit: Elicit; messages: string[] }> {
  const server = new Server({ name: "server", version: "1.0.0" }, { capabilities: {} });
  const client = new Client({ name: "client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const messages: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    messages.push(request.params.message);
    const reply = replies.shift() ?? new Promise<never>(() => undefined);
    if (reply instanceof Error) throw reply;
    return reply;
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  closers.push(() => client.close());
  return { elicit: (request, { signal }) => server.elicitInput(request, { signal }), messages };
}

const never = new AbortController().signal;

describe("createElicitationAskPort", () => {
  it("answers an accepted form, skips on decline and on cancel", async () => {
    const { elicit } = await elicitThroughSdk([
      { action: "accept", content: { choice: "3" } },
      { action: "decline" },
      { action: "cancel" },
    ]);
    const port = createElicitationAskPort(elicit);
    expect(port.operatorPresent()).toBe(true);
    expect(await port.ask(sampleCard(), { signal: never })).toEqual({
      status: "answered",
      choices: [{ number: 3, label: "Redis, as a cache" }],
    });
    expect(await port.ask(sampleCard(), { signal: never })).toEqual({
      status: "skipped",
      via: "the user declined the form",
    });
    expect(await port.ask(sampleCard(), { signal: never })).toEqual({
      status: "skipped",
      via: "the user dismissed the form",
    });
  });

  it("asks again with the reason after an empty form, and gives up as skipped after 5 of them", async () => {
    const { elicit, messages } = await elicitThroughSdk(
      Array.from({ length: 6 }, () => ({ action: "accept", content: {} }) as ElicitResult),
    );
    const port = createElicitationAskPort(elicit);
    const card = sampleCard({ allowFreeText: true });
    expect(await port.ask(card, { signal: never })).toEqual({
      status: "skipped",
      via: "the form came back without a valid answer 5 times (last: Nothing was chosen; pick an option by number or label, or skip.)",
    });
    expect(messages).toHaveLength(5);
    expect(messages[0]!.startsWith("Which database?")).toBe(true);
    expect(
      messages[4]!.startsWith("Nothing was chosen; pick an option by number or label, or skip. Please answer again."),
    ).toBe(true);
  });

  it("reports a client that fails the request as failed, and an aborted ask as withdrawn", async () => {
    const { elicit } = await elicitThroughSdk([new Error("the form crashed")]);
    const port = createElicitationAskPort(elicit, { operatorPresent: () => false });
    expect(port.operatorPresent()).toBe(false);
    expect(await port.ask(sampleCard(), { signal: never })).toEqual({
      status: "failed",
      reason: "the client's elicitation failed: MCP error -32603: the form crashed",
    });
    const controller = new AbortController();
    const pending = port.ask(sampleCard(), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the run ended")), 20);
    expect(await pending).toEqual({ status: "withdrawn", reason: "the run ended" });
  });
});
