import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";

/** What one {@link LineReader.readLine} got. */
export type LineRead = { kind: "line"; text: string } | { kind: "end" } | { kind: "aborted" };

/**
 * Reads lines from a stream only while someone waits for one: between reads the stream is paused,
 * so a terminal is not read while no card is shown (and keystrokes stay with the terminal).
 */
export class LineReader {
  private buffer = "";
  private readonly decoder = new StringDecoder("utf8");
  private endedFlag = false;

  constructor(private readonly input: Readable) {}

  /** True once the input has ended (Ctrl-D on a terminal, a closed pipe) and every line was read. */
  get ended(): boolean {
    return this.buffer === "" && (this.endedFlag || this.input.readableEnded || this.input.destroyed);
  }

  private takeLine(): string | undefined {
    const end = this.buffer.indexOf("\n");
    if (end === -1) return undefined;
    const line = this.buffer.slice(0, end).replace(/\r$/, "");
    this.buffer = this.buffer.slice(end + 1);
    return line;
  }

  /** The next line, `end` when the input ended, `aborted` when `signal` aborts first. */
  readLine(signal: AbortSignal): Promise<LineRead> {
    const buffered = this.takeLine();
    if (buffered !== undefined) return Promise.resolve({ kind: "line", text: buffered });
    if (signal.aborted) return Promise.resolve({ kind: "aborted" });
    if (this.ended) return Promise.resolve({ kind: "end" });
    return new Promise<LineRead>((resolve) => {
      const finish = (result: LineRead): void => {
        this.input.off("data", onData);
        this.input.off("end", onEnd);
        this.input.off("close", onEnd);
        this.input.off("error", onEnd);
        signal.removeEventListener("abort", onAbort);
        this.input.pause();
        resolve(result);
      };
      const onData = (chunk: Buffer | string): void => {
        this.buffer += typeof chunk === "string" ? chunk : this.decoder.write(chunk);
        const line = this.takeLine();
        if (line !== undefined) finish({ kind: "line", text: line });
      };
      const onEnd = (): void => {
        this.endedFlag = true;
        // A last line without its newline is still a reply.
        const rest = (this.buffer + this.decoder.end()).replace(/\r$/, "");
        this.buffer = "";
        finish(rest === "" ? { kind: "end" } : { kind: "line", text: rest });
      };
      const onAbort = (): void => finish({ kind: "aborted" });
      this.input.on("data", onData);
      this.input.once("end", onEnd);
      this.input.once("close", onEnd);
      this.input.once("error", onEnd);
      signal.addEventListener("abort", onAbort, { once: true });
      this.input.resume();
    });
  }
}
