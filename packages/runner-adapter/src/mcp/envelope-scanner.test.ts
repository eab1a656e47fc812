import { describe, expect, it } from "vitest";
import { EnvelopeScanner } from "./envelope-scanner.js";

function scan(text: string, pieceBytes = text.length): ReturnType<EnvelopeScanner["fields"]> {
  const scanner = new EnvelopeScanner();
  const bytes = Buffer.from(text);
  for (let start = 0; start < bytes.length; start += pieceBytes)
    scanner.feed(bytes.subarray(start, start + pieceBytes));
  return scanner.fields();
}

describe("EnvelopeScanner", () => {
  it("reads the id at the end, as the official TypeScript client writes it", () => {
    expect(
      scan('{"method":"tools/call","params":{"name":"write","arguments":{"content":"xx"}},"jsonrpc":"2.0","id":12}'),
    ).toEqual({ method: "tools/call", id: 12 });
  });

  it("reads the id at the start, as other clients write it, and string ids with escapes", () => {
    expect(scan('{"jsonrpc":"2.0","id":"a\\"b\\u00e9","method":"tools/call","params":{}}')).toEqual({
      method: "tools/call",
      id: 'a"bé',
    });
  });

  it("ignores an id or method below the top level and inside strings", () => {
    const text =
      '{"jsonrpc":"2.0","method":"tools/call","params":{"id":99,"arguments":{"method":"x","list":[{"id":1}],"text":"\\",\\"id\\":7"}},"id":3}';
    expect(scan(text)).toEqual({ method: "tools/call", id: 3 });
  });

  it("says when there is no id (a notification) or no method (a response)", () => {
    expect(scan('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}')).toEqual({
      method: "notifications/progress",
    });
    expect(scan('{"jsonrpc":"2.0","id":4,"result":{"action":"accept","content":{"a":[1,2,{"b":"c"}]}}}')).toEqual({
      id: 4,
    });
    expect(scan('{"jsonrpc":"2.0","id":null,"error":{"code":1}}')).toEqual({ id: null });
  });

  it("gives the same answer whatever the pieces, even one byte at a time and through multi-byte characters", () => {
    const text = '{"jsonrpc":"2.0","method":"tools/call","params":{"text":"héllo — 🙂 \\\\"},"id":-17}';
    expect(scan(text, 1)).toEqual({ method: "tools/call", id: -17 });
    expect(scan(text, 7)).toEqual({ method: "tools/call", id: -17 });
  });

  it("keeps no id that is not a number, string or null, nor one too long to be real", () => {
    expect(scan('{"id":{"x":1},"method":"m"}')).toEqual({ method: "m" });
    expect(scan(`{"id":"${"x".repeat(5_000)}","method":"m"}`)).toEqual({ method: "m" });
    expect(scan('["not", "an", "object", {"id": 1}]')).toEqual({});
  });
});
