import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Counter, examplePlugin } from "../__fixtures__/example-plugin.js";
import { askFor } from "../approval.js";
import { createRun } from "../create-run.js";
import type { McpClientSession } from "./mcp-client-session.js";
import { serveRunOverMcp, type McpServeSettings } from "./serve-run-over-mcp.js";

async function serve(clientCapabilities: Record<string, unknown>, settings: McpServeSettings = {}) {
  const run = createRun({ plugins: [examplePlugin], approvalPolicy: askFor(["write"]) });
  await run.attach(Counter, { value: { count: 0 } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  let session!: (client: McpClientSession) => void;
  const initialized = new Promise<McpClientSession>((resolve) => (session = resolve));
  serveRunOverMcp(serverTransport, run, {
    onClientInitialized: (client) => session(client),
    ...settings,
  });
  const client = new Client({ name: "probe", version: "2.0.0" }, { capabilities: clientCapabilities });
  return { run, client, initialized, connected: client.connect(clientTransport) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("serveRunOverMcp's client session", () => {
  it("hands the host the client's name and whether it declared form elicitation", async () => {
    const withForms = await serve({ elicitation: {} });
    await withForms.connected;
    expect(await withForms.initialized).toMatchObject({
      clientInfo: { name: "probe", version: "2.0.0" },
      supportsElicitation: true,
    });
    await withForms.client.close();
    const urlOnly = await serve({ elicitation: { url: {} } });
    await urlOnly.connected;
    expect((await urlOnly.initialized).supportsElicitation).toBe(false);
    await urlOnly.client.close();
    const none = await serve({});
    await none.connected;
    expect((await none.initialized).supportsElicitation).toBe(false);
    await none.client.close();
  });

  it("elicits a form the client answers, and cancels it on the client's side when the signal aborts", async () => {
    const { client, initialized, connected } = await serve({ elicitation: {} });
    const seen: unknown[] = [];
    let answer!: (result: ElicitResult) => void;
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      seen.push(request.params);
      return new Promise<ElicitResult>((resolve, reject) => {
        answer = resolve;
        extra.signal.addEventListener("abort", () => reject(new Error("cancelled by the server")));
      });
    });
    await connected;
    const session = await initialized;
    const form = {
      message: "Pick?",
      requestedSchema: {
        type: "object" as const,
        properties: { choice: { type: "string" as const, enum: ["1", "2"] } },
      },
    };
    const first = session.elicit(form, { signal: new AbortController().signal });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    answer({ action: "accept", content: { choice: "2" } });
    expect(await first).toMatchObject({ action: "accept", content: { choice: "2" } });
    expect(seen[0]).toMatchObject({ mode: "form", message: "Pick?" });
    const controller = new AbortController();
    const second = session.elicit(form, { signal: controller.signal });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    controller.abort(new Error("run closed"));
    await expect(second).rejects.toThrow();
    await client.close();
  });

  it("keeps an elicitation open past the SDK's 60-second request timeout", async () => {
    const { client, initialized, connected } = await serve({ elicitation: {} });
    let answer!: (result: ElicitResult) => void;
    const asked = new Promise<void>((resolve) => {
      client.setRequestHandler(ElicitRequestSchema, () => {
        resolve();
        return new Promise<ElicitResult>((settle) => (answer = settle));
      });
    });
    await connected;
    const session = await initialized;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const pending = session.elicit(
      { message: "Still there?", requestedSchema: { type: "object", properties: {} } },
      { signal: new AbortController().signal },
    );
    const settled = vi.fn();
    pending.then(settled, settled);
    await asked;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(settled).not.toHaveBeenCalled();
    answer({ action: "decline" });
    expect(await pending).toMatchObject({ action: "decline" });
    vi.useRealTimers();
    await client.close();
  });

  it("leaves approvals to the host when `elicitationApprovals` is false: an ask is denied with no approver", async () => {
    const { client, connected } = await serve({ elicitation: {} }, { elicitationApprovals: false });
    const asked = vi.fn();
    client.setRequestHandler(ElicitRequestSchema, asked);
    await connected;
    const result = await client.callTool({ name: "bump", arguments: { by: 1 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("no approver is connected");
    expect(asked).not.toHaveBeenCalled();
    await client.close();
  });

  it("answers a call made right after `initialized` only once `onClientInitialized` has attached what it attaches", async () => {
    const run = createRun({ plugins: [examplePlugin], approvalPolicy: askFor(["write"]) });
    await run.attach(Counter, { value: { count: 0 } });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    // A host whose attach takes a while (an ask port resource), as the CLI's does under load.
    serveRunOverMcp(serverTransport, run, {
      elicitationApprovals: false,
      onClientInitialized: async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        run.setApprover({ approve: () => Promise.resolve(true) });
      },
    });
    const client = new Client({ name: "probe", version: "2.0.0" });
    await client.connect(clientTransport);
    const result = await client.callTool({ name: "bump", arguments: { by: 1 } });
    expect(JSON.stringify(result.content)).not.toContain("no approver is connected");
    expect(result.isError).toBeFalsy();
    await client.close();
  });

  it("reports a failing `onClientInitialized` to the server's error handler", async () => {
    const run = createRun({ plugins: [examplePlugin] });
    const errors: Error[] = [];
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    serveRunOverMcp(serverTransport, run, {
      onClientInitialized: () => Promise.reject(new Error("attach failed")),
      onError: (error) => errors.push(error),
    });
    const client = new Client({ name: "probe", version: "2.0.0" });
    await client.connect(clientTransport);
    await vi.waitFor(() => expect(errors.map((error) => error.message)).toContain("attach failed"));
    await client.close();
  });
});
