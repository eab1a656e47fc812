import { EnvelopeScanner, type EnvelopeFields } from "./envelope-scanner.js";

const NEWLINE = 0x0a;

/** A message the gate dropped for its size: how large it was and what its top level said. */
export interface OversizedMessage extends EnvelopeFields {
  /** Its size in bytes, without the `\n` that ends it. */
  bytes: number;
}

/**
 * Splits a newline-delimited stream (MCP's stdio framing) into whole messages of at most
 * `maxMessageBytes` each, handed on with their line end for the SDK's own reader to parse. A longer
 * message is not kept: its bytes are counted and scanned for its `id` and `method` (only once it is
 * known to be too long, so ordinary messages cost no scan) and dropped up to its line end, then
 * reported; the messages after it pass as usual.
 */
export class MessageSizeGate {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the current message is too long: its bytes are scanned and dropped. */
  private oversized: { scanner: EnvelopeScanner; bytes: number } | undefined;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly onMessage: (line: Buffer) => void,
    private readonly onOversized: (message: OversizedMessage) => void,
  ) {}

  /** Take the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.endOfMessage(chunk.subarray(newline, newline + 1));
      start = newline + 1;
    }
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized !== undefined) {
      this.oversized.scanner.feed(piece);
      this.oversized.bytes += piece.length;
      return;
    }
    if (this.pendingBytes + piece.length <= this.maxMessageBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const scanner = new EnvelopeScanner();
    for (const held of this.pending) scanner.feed(held);
    scanner.feed(piece);
    this.oversized = { scanner, bytes: this.pendingBytes + piece.length };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endOfMessage(lineEnd: Buffer): void {
    if (this.oversized !== undefined) {
      const { scanner, bytes } = this.oversized;
      this.oversized = undefined;
      this.onOversized({ ...scanner.fields(), bytes });
      return;
    }
    const line = Buffer.concat([...this.pending, lineEnd]);
    this.pending = [];
    this.pendingBytes = 0;
    this.onMessage(line);
  }
}
