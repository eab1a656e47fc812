import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { Counter, examplePlugin } from "../__fixtures__/example-plugin.js";
import { askFor } from "../approval.js";
import { createRun } from "../create-run.js";
import type { McpClientSession } from "./mcp-client-session.js";
import { serveRunOverMcp, type McpServeSettings } from "./serve-run-over-mcp.js";

type Answer = { action: "accept"; content: Record<string, string | number | boolean> } | { action: "decline" };

/** A run served to the SDK v2 client negotiating MCP 2026-07-28; `answer` is its user. */
async function serveModern(answer: (message: string) => Promise<Answer>, settings: McpServeSettings = {}) {
  const run = createRun({ plugins: [examplePlugin], approvalPolicy: askFor(["write"]) });
  const counter = { count: 0 };
  await run.attach(Counter, { value: counter });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  let known!: (client: McpClientSession) => void;
  const session = new Promise<McpClientSession>((resolve) => (known = resolve));
  const serve = serveRunOverMcp(serverTransport, run, { onClientInitialized: (client) => known(client), ...settings });
  const client = new Client(
    { name: "modern-probe", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
  );
  const questions: string[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    questions.push(String(request.params.message));
    return answer(String(request.params.message));
  });
  await client.connect(clientTransport);
  return { run, counter, client, questions, session, serve };
}

const text = (result: { content?: unknown }): string =>
  ((result.content ?? []) as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");

describe("serveRunOverMcp with an MCP 2026-07-28 client", () => {
  it("asks an approval as an input-required round: the call runs on accept and is denied on decline", async () => {
    const answers: Answer[] = [{ action: "accept", content: { approve: true } }, { action: "decline" }];
    const { client, counter, questions, session } = await serveModern(() => Promise.resolve(answers.shift()!));
    expect(client.getProtocolEra()).toBe("modern");
    const allowed = await client.callTool({ name: "bump", arguments: { by: 2 } });
    expect(text(allowed)).toBe("now 2");
    expect(counter.count).toBe(2);
    const denied = await client.callTool({ name: "bump", arguments: { by: 5 } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("was denied");
    expect(counter.count).toBe(2);
    expect(questions).toEqual([expect.stringContaining("Allow `bump` (write)"), expect.stringContaining('"by":5')]);
    expect(await session).toMatchObject({
      clientInfo: { name: "modern-probe", version: "1.0.0" },
      protocolVersion: "2026-07-28",
      supportsElicitation: true,
    });
    await client.close();
  });

  it("cancels a call whose client does not come back with the answer in time, and refuses the late retry", async () => {
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    const { client, counter } = await serveModern(
      async () => {
        await late;
        return { action: "accept", content: { approve: true } };
      },
      { answerTimeoutMs: 150 },
    );
    const call = client.callTool({ name: "bump", arguments: { by: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    await expect(call).rejects.toThrow(/names no call of `bump` waiting for answers/);
    expect(counter.count).toBe(0);
    await client.close();
  });

  it("sends a question asked outside any call with the next round of any call", async () => {
    const { client, session, questions } = await serveModern(() =>
      Promise.resolve({ action: "accept", content: { approve: true } }),
    );
    // The first list makes the client known; a background worker's question comes later, outside any call.
    await client.listTools();
    const outside = (await session).elicit(
      { message: "May the worker write?", requestedSchema: { type: "object", properties: {} } },
      { signal: new AbortController().signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(questions).toEqual([]);
    const peek = await client.callTool({ name: "peek", arguments: {} });
    expect(text(peek)).toBe("count=0");
    expect(await outside).toEqual({ action: "accept", content: { approve: true } });
    expect(questions).toEqual(["May the worker write?"]);
    await client.close();
  });

  it("ends the run when the connection closes, cancelling a call that waits for its user", async () => {
    const { client, run, serve, counter } = await serveModern(() => new Promise<Answer>(() => undefined));
    // Never awaited: the client's own driver waits on its user (who never answers) even after close.
    void client.callTool({ name: "bump", arguments: { by: 1 } }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.close();
    await serve.closed;
    expect(counter.count).toBe(0);
    expect(run.tools.length).toBeGreaterThan(0);
    await expect(run.call("peek", {})).resolves.toMatchObject({ isError: true });
  });
});
