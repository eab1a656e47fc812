import { describe, expect, it } from "vitest";
import { DapFramer, DapFramingError, encodeDapMessage } from "./dap-framer.js";

function collect(): { framer: DapFramer; messages: unknown[]; errors: string[] } {
  const messages: unknown[] = [];
  const errors: string[] = [];
  return {
    framer: new DapFramer(
      (message) => messages.push(message),
      (error) => errors.push(error.message),
    ),
    messages,
    errors,
  };
}

describe("DapFramer", () => {
  it("reads messages split anywhere and several in one chunk, counting bytes not characters", () => {
    const { framer, messages, errors } = collect();
    const first = encodeDapMessage({ seq: 1, type: "event", event: "output", body: { output: "héllo ✓\n" } });
    const second = encodeDapMessage({ seq: 2, type: "response", success: true });
    const bytes = Buffer.concat([first, second]);
    for (let index = 0; index < bytes.length; index += 7) framer.push(bytes.subarray(index, index + 7));
    expect(messages).toEqual([
      { seq: 1, type: "event", event: "output", body: { output: "héllo ✓\n" } },
      { seq: 2, type: "response", success: true },
    ]);
    expect(errors).toEqual([]);
  });

  it("waits for the whole body before delivering", () => {
    const { framer, messages } = collect();
    const bytes = encodeDapMessage({ seq: 1 });
    framer.push(bytes.subarray(0, bytes.length - 1));
    expect(messages).toEqual([]);
    framer.push(bytes.subarray(bytes.length - 1));
    expect(messages).toEqual([{ seq: 1 }]);
  });

  it("accepts other headers and any case of Content-Length", () => {
    const { framer, messages } = collect();
    const body = JSON.stringify({ seq: 3 });
    framer.push(Buffer.from(`Content-Type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`));
    expect(messages).toEqual([{ seq: 3 }]);
  });

  it("skips a header without a length and a body that is not JSON, then reads on", () => {
    const { framer, messages, errors } = collect();
    framer.push(Buffer.from("garbage line\r\n\r\nContent-Length: 5\r\n\r\nnope!"));
    framer.push(encodeDapMessage({ seq: 4 }));
    expect(messages).toEqual([{ seq: 4 }]);
    expect(errors).toEqual([
      "The debug adapter sent a header without Content-Length: `garbage line`.",
      "The debug adapter sent a body that is not JSON: `nope!`.",
    ]);
  });

  it("encodes the byte length of the UTF-8 body", () => {
    expect(encodeDapMessage({ text: "é" }).toString("utf8")).toBe('Content-Length: 13\r\n\r\n{"text":"é"}');
  });

  it("reads a length with or without spaces around it, and a frame right after a blank header", () => {
    const { framer, messages, errors } = collect();
    const body = JSON.stringify({ seq: 5 });
    framer.push(
      Buffer.from(`\r\n\r\nContent-Length:${body.length}\r\n\r\n${body}Content-Length: ${body.length} \r\n\r\n${body}`),
    );
    expect(messages).toEqual([{ seq: 5 }, { seq: 5 }]);
    expect(errors).toEqual(["The debug adapter sent a header without Content-Length: ``."]);
  });

  it("quotes at most 80 characters of what it could not read", () => {
    const { framer, errors } = collect();
    framer.push(Buffer.from(`${"h".repeat(100)}\r\n\r\nContent-Length: 120\r\n\r\n${"b".repeat(120)}`));
    expect(errors).toEqual([
      `The debug adapter sent a header without Content-Length: \`${"h".repeat(80)}\`.`,
      `The debug adapter sent a body that is not JSON: \`${"b".repeat(80)}\`.`,
    ]);
    expect(new DapFramingError("x").name).toBe("DapFramingError");
  });
});
