/**
 * The Debug Adapter Protocol's base framing: `Content-Length: N\r\n\r\n` then N bytes of UTF-8 JSON.
 * vscode-jsonrpc's reader frames the same way but checks JSON-RPC shapes DAP messages do not have
 * (`seq`/`type` instead of `jsonrpc`/`id`), so the framing is kept here, small and tested.
 */

const headerEnd = Buffer.from("\r\n\r\n");

/** A frame the framer could not read, with the bytes it skipped (an adapter writing garbage). */
export class DapFramingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DapFramingError";
  }
}

/** Turns a byte stream into DAP messages; feed it chunks, it calls `onMessage` for each complete one. */
export class DapFramer {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(
    private readonly onMessage: (message: unknown) => void,
    private readonly onError: (error: DapFramingError) => void,
  ) {}

  /** Add bytes as they arrive; every complete message in them is delivered before this returns. */
  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf(headerEnd);
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString("ascii");
      const match = /(?:^|\r\n)Content-Length:\s*(\d+)\s*(?:\r\n|$)/i.exec(header);
      if (match === null) {
        // Not a frame header: skip it, so one bad line does not wedge the connection.
        this.buffer = this.buffer.subarray(end + headerEnd.length);
        this.onError(
          new DapFramingError(`The debug adapter sent a header without Content-Length: \`${header.slice(0, 80)}\`.`),
        );
        continue;
      }
      const length = Number(match[1]);
      const start = end + headerEnd.length;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString("utf8");
      this.buffer = this.buffer.subarray(start + length);
      let message: unknown;
      try {
        message = JSON.parse(body);
      } catch {
        this.onError(new DapFramingError(`The debug adapter sent a body that is not JSON: \`${body.slice(0, 80)}\`.`));
        continue;
      }
      this.onMessage(message);
    }
  }
}

/** One message as bytes on the wire. */
export function encodeDapMessage(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
}
