import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { Counter, examplePlugin } from "../__fixtures__/example-plugin.js";
import { askFor } from "../approval.js";
import { createRun, type RunSettings } from "../create-run.js";
import { serveRunOverMcp, type McpServeSettings } from "./serve-run-over-mcp.js";

async function connect(
  settings: Partial<RunSettings> = {},
  clientCapabilities = {},
  serveSettings: McpServeSettings = {},
) {
  const run = createRun({ plugins: [examplePlugin], ...settings });
  const dispose = vi.fn();
  await run.attach(Counter, { value: { count: 0 }, dispose });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const { closed } = serveRunOverMcp(serverTransport, run, serveSettings);
  const client = new Client({ name: "client", version: "1.0.0" }, { capabilities: clientCapabilities });
  return { run, client, dispose, closed, ready: client.connect(clientTransport) };
}

describe("serveRunOverMcp", () => {
  it("lists visible tools with JSON Schema, calls one, and reports bad input as an error result", async () => {
    const { client, ready } = await connect();
    await ready;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["peek", "bump", "launch", "hang", "fail", "relay", "big"]);
    expect(tools.find((tool) => tool.name === "bump")!.inputSchema).toMatchObject({
      type: "object",
      required: ["by"],
      additionalProperties: false,
    });
    expect(tools.find((tool) => tool.name === "peek")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(await client.callTool({ name: "bump", arguments: { by: 4 } })).toEqual({
      content: [{ type: "text", text: "now 4" }],
      isError: false,
    });
    const bad = await client.callTool({ name: "bump", arguments: { by: "4" } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('Field `by` must be number, but got \\"4\\"');
    await client.close();
  });

  it("lists every tool with a title and the annotations of its tier", async () => {
    const { client, ready } = await connect();
    await ready;
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "peek")).toMatchObject({
      title: "Peek",
      annotations: { title: "Peek", readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    });
    expect(tools.find((tool) => tool.name === "bump")!.annotations).toStrictEqual({
      title: "Bump",
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(tools.find((tool) => tool.name === "launch")!.annotations).toStrictEqual({
      title: "Launch",
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    await client.close();
  });

  it("forwards a tool's progress notices when the client asks for them", async () => {
    const steps = defineTool({
      name: "steps",
      tier: "read",
      description: "Reports progress.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async (_input, context) => {
        context.progress({ message: "half", progress: 1, total: 2 });
        context.progress({ message: "done", progress: 2, total: 2 });
        return "ok";
      },
    });
    const { client, ready } = await connect({
      plugins: [examplePlugin, definePlugin({ name: "steps", version: "1.0.0", tools: [steps] })],
    });
    await ready;
    const notices: unknown[] = [];
    const result = await client.callTool({ name: "steps", arguments: {} }, undefined, {
      onprogress: (progress) => notices.push(progress),
    });
    expect(result.isError).toBe(false);
    expect(notices).toEqual([
      { progress: 1, total: 2, message: "half" },
      { progress: 2, total: 2, message: "done" },
    ]);
    await client.close();
  });

  it("counts the notices of a tool that reports no numbers, and sends none to a client that asked for none", async () => {
    const chatty = defineTool({
      name: "chatty",
      tier: "read",
      description: "Reports progress without numbers.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: async (_input, context) => {
        context.progress({ message: "started" });
        context.progress({ message: "finished" });
        return "ok";
      },
    });
    const { client, ready } = await connect({
      plugins: [examplePlugin, definePlugin({ name: "chatty", version: "1.0.0", tools: [chatty] })],
    });
    await ready;
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const notices: unknown[] = [];
    await client.callTool({ name: "chatty", arguments: {} }, undefined, {
      onprogress: (progress) => notices.push(progress),
    });
    expect(notices).toStrictEqual([
      { progress: 1, message: "started" },
      { progress: 2, message: "finished" },
    ]);
    expect((await client.callTool({ name: "chatty", arguments: {} })).isError).toBe(false);
    // A notice for a token the client never gave is reported as an error on its side.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toStrictEqual([]);
    await client.close();
  });

  it("serves the view of the caller it is given", async () => {
    const { client, ready } = await connect({}, {}, { caller: { name: "plan", ceiling: "read" } });
    await ready;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["peek", "hang", "fail", "relay", "big"]);
    expect((await client.callTool({ name: "bump", arguments: { by: 1 } })).isError).toBe(true);
    await client.close();
  });

  it("announces a changed tool set when a resource is detached", async () => {
    const { run, client, ready } = await connect();
    await ready;
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await run.detach(Counter);
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("peek");
    await client.close();
  });

  it("asks for approval through elicitation when the client supports it", async () => {
    const { client, ready } = await connect({ approvalPolicy: askFor(["write"]) }, { elicitation: {} });
    const asked = vi
      .fn()
      .mockResolvedValueOnce({ action: "accept", content: { approve: true } })
      .mockResolvedValueOnce({ action: "decline" });
    client.setRequestHandler(ElicitRequestSchema, asked);
    await ready;
    expect(await client.callTool({ name: "bump", arguments: { by: 1 } })).toMatchObject({ isError: false });
    const declined = await client.callTool({ name: "bump", arguments: { by: 1 } });
    expect(declined.isError).toBe(true);
    expect(JSON.stringify(declined.content)).toContain("was denied");
    expect(asked.mock.calls[0]![0].params.message).toBe('Allow `bump` (write) with input {"by":1}?');
  });

  it("denies an approval-needing call at once when the client cannot elicit", async () => {
    const { client, ready } = await connect({ approvalPolicy: askFor(["write"]) });
    await ready;
    const result = await client.callTool({ name: "bump", arguments: { by: 1 } });
    expect(JSON.stringify(result.content)).toContain("no approver is connected");
    await client.close();
  });

  it("closes the run and disposes its resources when the connection ends", async () => {
    const { client, dispose, closed, ready } = await connect();
    await ready;
    await client.close();
    await closed;
    expect(dispose).toHaveBeenCalledTimes(1);
  });

  it("closes within `closeGraceMs` when the connection ends while a call never stops", async () => {
    const neverStops = defineTool({
      name: "never_stops",
      tier: "read",
      description: "Ignores its signal and never settles.",
      input: v.strictObject({}),
      requires: [],
      parallelSafe: true,
      run: () => new Promise(() => undefined),
    });
    const plugins = [examplePlugin, definePlugin({ name: "stuck", version: "1.0.0", tools: [neverStops] })];
    const { run, client, dispose, closed, ready } = await connect({ plugins }, {}, { closeGraceMs: 50 });
    await ready;
    void client.callTool({ name: "never_stops", arguments: {} }).catch(() => undefined);
    await vi.waitFor(() => expect(run.activeCalls).toBe(1));
    const started = performance.now();
    await client.close();
    await closed;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(dispose).toHaveBeenCalledTimes(1);
  });
});
