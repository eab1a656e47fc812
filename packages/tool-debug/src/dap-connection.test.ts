import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { DapConnection, DapNoAnswer, DapRequestFailed } from "./dap-connection.js";
import { DapFramer, encodeDapMessage } from "./dap-framer.js";

// Both ends in memory: `adapter` is what the adapter would read (our requests) and write.
function pair(): { connection: DapConnection; sent: Array<Record<string, unknown>>; reply(message: unknown): void; end(): void } {
  const toClient = new PassThrough();
  const toAdapter = new PassThrough();
  const sent: Array<Record<string, unknown>> = [];
  const framer = new DapFramer((message) => sent.push(message as Record<string, unknown>), () => undefined);
  toAdapter.on("data", (chunk: Buffer) => framer.push(chunk));
  return { connection: new DapConnection(toClient, toAdapter), sent, reply: (message) => toClient.write(encodeDapMessage(message)), end: () => toClient.end() };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("DapConnection", () => {
  it("matches responses to requests by seq, whatever their order", async () => {
    const { connection, sent, reply } = pair();
    const first = connection.request("threads", {}, 1_000);
    const second = connection.request("scopes", { frameId: 1 }, 1_000);
    await tick();
    expect(sent.map((message) => [message["seq"], message["command"], message["type"]])).toEqual([
      [1, "threads", "request"],
      [2, "scopes", "request"],
    ]);
    reply({ seq: 10, type: "response", request_seq: 2, command: "scopes", success: true, body: { scopes: [] } });
    reply({ seq: 11, type: "response", request_seq: 1, command: "threads", success: true, body: { threads: [{ id: 1, name: "main" }] } });
    expect((await first).body).toEqual({ threads: [{ id: 1, name: "main" }] });
    expect((await second).body).toEqual({ scopes: [] });
  });

  it("rejects a failed response with the adapter's message and its formatted error", async () => {
    const { connection, reply } = pair();
    const request = connection.request("launch", {}, 1_000);
    reply({ seq: 1, type: "response", request_seq: 1, command: "launch", success: false, message: "Failed to launch", body: { error: { id: 3000, format: "Build error: Check the debug console for details." } } });
    const error = await request.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DapRequestFailed);
    expect((error as DapRequestFailed).adapterMessage).toBe("Failed to launch: Build error: Check the debug console for details.");
  });

  it("times out a request nobody answers, and fails pending requests when the stream ends", async () => {
    const { connection, end } = pair();
    const late = await connection.request("evaluate", {}, 20).catch((caught: unknown) => caught);
    expect(late).toEqual(new DapNoAnswer("evaluate", "timeout"));
    const pending = connection.request("stackTrace", {}, 5_000);
    end();
    expect(await pending.catch((caught: unknown) => (caught as DapNoAnswer).why)).toBe("closed");
    expect(connection.closed).toBe(true);
    expect(await connection.request("threads", {}, 1_000).catch((caught: unknown) => (caught as DapNoAnswer).why)).toBe("closed");
  });

  it("waits for the next accepted event, or says the budget passed or the connection closed", async () => {
    const { connection, reply, end } = pair();
    const stopped = connection.waitForEvent((event) => event.event === "stopped", 1_000);
    reply({ seq: 1, type: "event", event: "output", body: { output: "x" } });
    reply({ seq: 2, type: "event", event: "stopped", body: { reason: "breakpoint" } });
    expect(await stopped).toEqual({ kind: "event", event: { seq: 2, type: "event", event: "stopped", body: { reason: "breakpoint" } } });
    expect(await connection.waitForEvent(() => true, 20)).toEqual({ kind: "timeout" });
    const closing = connection.waitForEvent(() => true, 1_000);
    end();
    expect(await closing).toEqual({ kind: "closed" });
  });

  it("refuses a reverse request instead of leaving the adapter waiting", async () => {
    const { sent, reply } = pair();
    reply({ seq: 7, type: "request", command: "runInTerminal", arguments: {} });
    await tick();
    await tick();
    expect(sent).toEqual([expect.objectContaining({ type: "response", request_seq: 7, command: "runInTerminal", success: false })]);
  });
});
