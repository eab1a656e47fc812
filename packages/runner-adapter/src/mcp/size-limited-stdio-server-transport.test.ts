import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { OversizedMessage } from "./message-size-gate.js";
import { SizeLimitedStdioServerTransport, type OversizedAnswer } from "./size-limited-stdio-server-transport.js";

const limit = 1_000;

async function started(): Promise<{
  stdin: PassThrough;
  written: () => JSONRPCMessage[];
  received: JSONRPCMessage[];
  reports: Array<[OversizedMessage, OversizedAnswer]>;
  closed: () => boolean;
}> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = "";
  stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const reports: Array<[OversizedMessage, OversizedAnswer]> = [];
  const transport = new SizeLimitedStdioServerTransport(stdin, stdout, {
    maxMessageBytes: limit,
    onOversizedMessage: (message, answer) => reports.push([message, answer]),
  });
  const received: JSONRPCMessage[] = [];
  let closed = false;
  transport.onmessage = (message) => received.push(message);
  transport.onclose = () => (closed = true);
  await transport.start();
  const written = (): JSONRPCMessage[] =>
    output
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JSONRPCMessage);
  return { stdin, written, received, reports, closed: () => closed };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const big = "x".repeat(limit);

describe("SizeLimitedStdioServerTransport", () => {
  it("answers a request over the limit with an error under its id, and reads the next message", async () => {
    const { stdin, written, received, reports, closed } = await started();
    const request = JSON.stringify({
      method: "tools/call",
      params: { name: "write", arguments: { content: big } },
      jsonrpc: "2.0",
      id: 5,
    });
    stdin.write(`${request}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping" })}\n`);
    await settle();
    expect(written()).toEqual([
      {
        jsonrpc: "2.0",
        id: 5,
        error: {
          code: -32600,
          message: `The \`tools/call\` request is ${request.length.toLocaleString("en-US")} bytes, over this stdio connection's limit of 1,000 bytes per message, so it was not read. Send less in one message: write large content to a file in the working directory and pass its path, or split it over several calls.`,
          data: { messageBytes: request.length, maxMessageBytes: limit },
        },
      },
    ]);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 6, method: "ping" }]);
    expect(reports).toEqual([[{ method: "tools/call", id: 5, bytes: request.length }, "request_refused"]]);
    expect(closed()).toBe(false);
  });

  it("fails the server's own request when the client's answer to it is over the limit", async () => {
    const { stdin, written, received, reports } = await started();
    const response = JSON.stringify({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: { text: big } } });
    stdin.write(`${response}\n`);
    await settle();
    expect(written()).toEqual([]);
    expect(received).toEqual([
      {
        jsonrpc: "2.0",
        id: 0,
        error: expect.objectContaining({
          code: -32600,
          message: expect.stringContaining(
            `The message is ${response.length.toLocaleString("en-US")} bytes, over this stdio connection's limit of 1,000 bytes per message`,
          ) as string,
        }) as object,
      },
    ]);
    expect(reports.map(([, answer]) => answer)).toEqual(["response_failed"]);
  });

  it("drops a notification over the limit, which no one can be answered for", async () => {
    const { stdin, written, received, reports } = await started();
    const notification = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { data: big } });
    stdin.write(`${notification}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n`);
    await settle();
    expect(written()).toEqual([]);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(reports).toEqual([[{ method: "notifications/message", bytes: notification.length }, "dropped"]]);
  });

  it("is needed: the SDK's own transport ends the connection on such a message", async () => {
    const stdin = new PassThrough();
    const transport = new StdioServerTransport(stdin, new PassThrough(), { maxBufferSize: limit });
    let closed = false;
    transport.onclose = () => (closed = true);
    transport.onerror = () => undefined;
    await transport.start();
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { content: big } })}\n`);
    await settle();
    expect(closed).toBe(true);
  });

  it("refuses a limit that is not a positive whole number of bytes", () => {
    expect(
      () => new SizeLimitedStdioServerTransport(new PassThrough(), new PassThrough(), { maxMessageBytes: 0 }),
    ).toThrow("`maxMessageBytes` `0` is not valid; give a positive whole number of bytes, e.g. 10485760.");
  });
});
