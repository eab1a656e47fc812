import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { DapConnection, DapNoAnswer, DapRequestFailed } from "./dap-connection.js";
import { DapFramer, encodeDapMessage } from "./dap-framer.js";

// Both ends in memory: `adapter` is what the adapter would read (our requests) and write.
function pair(): {
  connection: DapConnection;
  sent: Array<Record<string, unknown>>;
  reply(message: unknown): void;
  end(): void;
} {
  const toClient = new PassThrough();
  const toAdapter = new PassThrough();
  const sent: Array<Record<string, unknown>> = [];
  const framer = new DapFramer(
    (message) => sent.push(message as Record<string, unknown>),
    () => undefined,
  );
  toAdapter.on("data", (chunk: Buffer) => framer.push(chunk));
  return {
    connection: new DapConnection(toClient, toAdapter),
    sent,
    reply: (message) => toClient.write(encodeDapMessage(message)),
    end: () => toClient.end(),
  };
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
    reply({
      seq: 11,
      type: "response",
      request_seq: 1,
      command: "threads",
      success: true,
      body: { threads: [{ id: 1, name: "main" }] },
    });
    expect((await first).body).toEqual({ threads: [{ id: 1, name: "main" }] });
    expect((await second).body).toEqual({ scopes: [] });
  });

  it("rejects a failed response with the adapter's message and its formatted error", async () => {
    const { connection, reply } = pair();
    const request = connection.request("launch", {}, 1_000);
    reply({
      seq: 1,
      type: "response",
      request_seq: 1,
      command: "launch",
      success: false,
      message: "Failed to launch",
      body: { error: { id: 3000, format: "Build error: Check the debug console for details." } },
    });
    const error = await request.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DapRequestFailed);
    expect((error as DapRequestFailed).adapterMessage).toBe(
      "Failed to launch: Build error: Check the debug console for details.",
    );
  });

  it("times out a request nobody answers, and fails pending requests when the stream ends", async () => {
    const { connection, end } = pair();
    const late = await connection.request("evaluate", {}, 20).catch((caught: unknown) => caught);
    expect(late).toEqual(new DapNoAnswer("evaluate", "timeout", 20));
    const pending = connection.request("stackTrace", {}, 5_000);
    end();
    expect(await pending.catch((caught: unknown) => (caught as DapNoAnswer).why)).toBe("closed");
    expect(connection.closed).toBe(true);
    expect(await connection.request("threads", {}, 1_000).catch((caught: unknown) => (caught as DapNoAnswer).why)).toBe(
      "closed",
    );
  });

  it("waits for the next accepted event, or says the budget passed or the connection closed", async () => {
    const { connection, reply, end } = pair();
    const stopped = connection.waitForEvent((event) => event.event === "stopped", 1_000);
    reply({ seq: 1, type: "event", event: "output", body: { output: "x" } });
    reply({ seq: 2, type: "event", event: "stopped", body: { reason: "breakpoint" } });
    expect(await stopped).toEqual({
      kind: "event",
      event: { seq: 2, type: "event", event: "stopped", body: { reason: "breakpoint" } },
    });
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
    expect(sent).toEqual([
      expect.objectContaining({
        type: "response",
        request_seq: 7,
        command: "runInTerminal",
        success: false,
        message: "runbound does not support the reverse request `runInTerminal`.",
      }),
    ]);
  });

  it("ends on every way its streams can end: input closed or failing, output failing", async () => {
    const ends: Array<(input: PassThrough, output: PassThrough) => void> = [
      (input) => input.destroy(),
      (input) => input.destroy(new Error("read failed")),
      (_, output) => output.destroy(new Error("EPIPE")),
    ];
    for (const end of ends) {
      const input = new PassThrough();
      const output = new PassThrough();
      const connection = new DapConnection(input, output);
      const pending = connection.request("threads", {}, 5_000);
      end(input, output);
      expect(await pending.catch((caught: unknown) => (caught as DapNoAnswer).why)).toBe("closed");
      expect(connection.closed).toBe(true);
    }
  });

  it("names its errors and says why a request got no answer", () => {
    const refused = new DapRequestFailed("evaluate", "bad");
    expect(refused.name).toBe("DapRequestFailed");
    expect(refused.message).toBe("bad");
    const closed = new DapNoAnswer("next", "closed");
    expect(closed.name).toBe("DapNoAnswer");
    expect(closed.message).toBe("The debug adapter closed the connection before answering `next`.");
    expect(new DapNoAnswer("next", "timeout").message).toBe("The debug adapter did not answer `next` in time.");
    expect(new DapNoAnswer("next", "timeout", 250).message).toBe(
      "The debug adapter did not answer `next` within 250 ms.",
    );
  });

  it("a failed response's text: the formatted error alone, or the command when the adapter gives none", async () => {
    const { connection, reply } = pair();
    const onlyFormat = connection.request("launch", {}, 1_000);
    const nothing = connection.request("next", {}, 1_000);
    reply({
      seq: 1,
      type: "response",
      request_seq: 1,
      command: "launch",
      success: false,
      message: "",
      body: { error: { id: 1, format: "No such file" } },
    });
    reply({ seq: 2, type: "response", request_seq: 2, command: "next", success: false });
    expect(await onlyFormat.catch((caught: unknown) => (caught as DapRequestFailed).adapterMessage)).toBe(
      "No such file",
    );
    expect(await nothing.catch((caught: unknown) => (caught as DapRequestFailed).adapterMessage)).toBe("`next` failed");
  });

  it("keeps framing errors, none at first", async () => {
    const input = new PassThrough();
    const connection = new DapConnection(input, new PassThrough());
    expect(connection.framingErrors).toEqual([]);
    input.write("Content-Length: x\r\n\r\n");
    await tick();
    expect(connection.framingErrors).toHaveLength(1);
  });

  it("stops calling an event listener once it unsubscribed, and calls a close listener once, at once when already closed", async () => {
    const { connection, reply, end } = pair();
    const seen: string[] = [];
    const stop = connection.onEvent((event) => seen.push(event.event));
    reply({ seq: 1, type: "event", event: "output", body: {} });
    await tick();
    stop();
    reply({ seq: 2, type: "event", event: "stopped", body: {} });
    await tick();
    expect(seen).toEqual(["output"]);
    let closes = 0;
    connection.onClose(() => closes++);
    end();
    await tick();
    connection.close();
    expect(closes).toBe(1);
    connection.onClose(() => closes++);
    expect(closes).toBe(2);
  });

  it("answers reverse requests with seqs that keep increasing, and ignores them once closed", async () => {
    const { connection, sent, reply } = pair();
    void connection.request("threads", {}, 1_000).catch(() => undefined);
    reply({ seq: 7, type: "request", command: "startDebugging", arguments: {} });
    await tick();
    await tick();
    void connection.request("stackTrace", {}, 1_000).catch(() => undefined);
    await tick();
    expect(sent.map((message) => message["seq"])).toEqual([1, 2, 3]);
    reply({ seq: 8, type: "event", event: "output", body: {} });
    // Neither a response, an event nor a request: nothing to answer.
    reply({ seq: 10, type: "unknown-kind" });
    await tick();
    await tick();
    expect(sent).toHaveLength(3);
    connection.close();
    reply({ seq: 9, type: "request", command: "runInTerminal", arguments: {} });
    await tick();
    await tick();
    expect(sent).toHaveLength(3);
  });
});
