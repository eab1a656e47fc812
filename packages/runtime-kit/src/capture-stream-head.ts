import type { Readable } from "node:stream";

/** The first bytes of a stream, and whether more came than were kept. */
export interface CapturedHead {
  /** The kept bytes as UTF-8 text. */
  text(): string;
  /** Whether the stream wrote more than the cap (the rest was read and dropped). */
  readonly cut: boolean;
  /** Settles when the stream has ended, closed or failed. */
  readonly ended: Promise<void>;
}

/**
 * Keep at most `maxBytes` of `stream` and read the rest into nothing: the writer never blocks on a
 * full pipe, and a program that prints gigabytes costs no more memory than the cap.
 */
export function captureStreamHead(stream: Readable, maxBytes: number): CapturedHead {
  const chunks: Buffer[] = [];
  let kept = 0;
  let cut = false;
  stream.on("data", (chunk: Buffer) => {
    const room = maxBytes - kept;
    if (chunk.length > room) cut = true;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    chunks.push(part);
    kept += part.length;
  });
  const ended = new Promise<void>((resolve) => {
    stream.once("end", resolve);
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  });
  return {
    text: () => Buffer.concat(chunks).toString("utf8"),
    get cut() {
      return cut;
    },
    ended,
  };
}
