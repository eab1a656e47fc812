import { describe, expect, it } from "vitest";
import { MessageSizeGate, type OversizedMessage } from "./message-size-gate.js";

function gate(maxMessageBytes: number): { gate: MessageSizeGate; messages: string[]; oversized: OversizedMessage[] } {
  const messages: string[] = [];
  const oversized: OversizedMessage[] = [];
  return {
    gate: new MessageSizeGate(
      maxMessageBytes,
      (line) => messages.push(line.toString()),
      (message) => oversized.push(message),
    ),
    messages,
    oversized,
  };
}

describe("MessageSizeGate", () => {
  it("passes whole messages with their line end, however the chunks fall", () => {
    const { gate: sizeGate, messages, oversized } = gate(100);
    for (const chunk of ['{"a":', '1}\n{"b":2}\n{"c"', ":3}\n"]) sizeGate.push(Buffer.from(chunk));
    expect(messages).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n']);
    expect(oversized).toEqual([]);
  });

  it("passes a message of exactly the limit and refuses one byte more, then goes on", () => {
    const { gate: sizeGate, messages, oversized } = gate(20);
    const exact = `{"id":1,"x":"${"a".repeat(5)}"}`;
    expect(Buffer.byteLength(exact)).toBe(20);
    const over = `{"id":2,"x":"${"a".repeat(6)}"}`;
    sizeGate.push(Buffer.from(`${exact}\n${over}\n{"id":3}\n`));
    expect(messages).toEqual([`${exact}\n`, '{"id":3}\n']);
    expect(oversized).toEqual([{ id: 2, bytes: 21 }]);
  });

  it("drops a long message spread over many chunks without keeping it, reads its id at the end, and passes the message in the same chunk as its end", () => {
    const { gate: sizeGate, messages, oversized } = gate(1_000);
    sizeGate.push(Buffer.from('{"method":"tools/call","params":{"content":"'));
    for (let index = 0; index < 50; index += 1) sizeGate.push(Buffer.from("x".repeat(100)));
    sizeGate.push(Buffer.from('"},"jsonrpc":"2.0","id":7}\n{"jsonrpc":"2.0","id":8,"method":"ping"}\n'));
    expect(oversized).toEqual([{ method: "tools/call", id: 7, bytes: 44 + 5_000 + 26 }]);
    expect(messages).toEqual(['{"jsonrpc":"2.0","id":8,"method":"ping"}\n']);
  });
});
