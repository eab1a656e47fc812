import type { Readable, Writable } from "node:stream";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { DapFramer, encodeDapMessage, type DapFramingError } from "./dap-framer.js";

/** A request the adapter answered with `success: false`; `message` is the adapter's own text. */
export class DapRequestFailed extends Error {
  constructor(
    readonly command: string,
    readonly adapterMessage: string,
  ) {
    super(adapterMessage);
    this.name = "DapRequestFailed";
  }
}

/** A request that got no answer in time, or whose connection closed first. */
export class DapNoAnswer extends Error {
  constructor(
    readonly command: string,
    readonly why: "timeout" | "closed",
    /** The budget the request had, named in the message when known. */
    readonly timeoutMs?: number,
  ) {
    super(
      why === "timeout"
        ? `The debug adapter did not answer \`${command}\` ${timeoutMs === undefined ? "in time" : `within ${timeoutMs} ms`}.`
        : `The debug adapter closed the connection before answering \`${command}\`.`,
    );
    this.name = "DapNoAnswer";
  }
}

/** What {@link DapConnection.waitForEvent} ends with. */
export type EventWait =
  { kind: "event"; event: DebugProtocol.Event } | { kind: "closed" } | { kind: "timeout" } | { kind: "aborted" };

interface Pending {
  command: string;
  resolve(response: DebugProtocol.Response): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

// The error text of a failed response: DAP puts a short id in `message` and the readable text in
// `body.error.format` (lldb, delve), or only `message` (debugpy).
function failureText(response: DebugProtocol.Response): string {
  const format = (response.body as { error?: DebugProtocol.Message } | undefined)?.error?.format;
  return (
    [response.message, format]
      .filter((part): part is string => typeof part === "string" && part.length > 0)
      .join(": ") || `\`${response.command}\` failed`
  );
}

/** One DAP client connection over a byte stream pair (an adapter's stdio, or dlv's socket). */
export class DapConnection {
  private sequence = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: DebugProtocol.Event) => void>();
  private isClosed = false;
  private readonly closeListeners = new Set<() => void>();
  /** Framing problems seen so far (garbage on the adapter's stdout), newest last. */
  readonly framingErrors: string[] = [];

  constructor(
    input: Readable,
    private readonly output: Writable,
  ) {
    const framer = new DapFramer(
      (message) => this.receive(message),
      (error: DapFramingError) => this.framingErrors.push(error.message),
    );
    input.on("data", (chunk: Buffer) => framer.push(chunk));
    input.once("close", () => this.close());
    input.once("end", () => this.close());
    input.on("error", () => this.close());
    output.on("error", () => this.close());
  }

  /** Whether the connection has ended. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Send a request and wait at most `timeoutMs` for its response. @throws {@link DapRequestFailed}, {@link DapNoAnswer} */
  request(command: string, args: unknown, timeoutMs: number): Promise<DebugProtocol.Response> {
    if (this.isClosed) return Promise.reject(new DapNoAnswer(command, "closed"));
    const seq = this.sequence++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(new DapNoAnswer(command, "timeout", timeoutMs));
      }, timeoutMs);
      this.pending.set(seq, { command, resolve, reject, timer });
      this.output.write(encodeDapMessage({ seq, type: "request", command, arguments: args }));
    });
  }

  /** Call `listener` for every event from now on; returns the way to stop. */
  onEvent(listener: (event: DebugProtocol.Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Call `listener` once when the connection ends (at once if it has). */
  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.add(listener);
  }

  /**
   * The next event that `accept` takes, the connection's end, or the budget's end, whichever comes
   * first — or the caller's `signal`, so a call whose client left stops waiting. Register it BEFORE
   * sending what causes the event: the event can arrive in the same chunk as the response.
   */
  waitForEvent(
    accept: (event: DebugProtocol.Event) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<EventWait> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: EventWait): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        stop();
        this.closeListeners.delete(onClosed);
        signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const onClosed = (): void => finish({ kind: "closed" });
      const onAbort = (): void => finish({ kind: "aborted" });
      const stop = this.onEvent((event) => {
        if (accept(event)) finish({ kind: "event", event });
      });
      const timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
      this.onClose(onClosed);
      if (signal?.aborted === true) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Stop listening and fail every request still waiting. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const [seq, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(seq);
      pending.reject(new DapNoAnswer(pending.command, "closed"));
    }
    for (const listener of this.closeListeners) listener();
    this.closeListeners.clear();
    this.listeners.clear();
  }

  private receive(message: unknown): void {
    const packet = message as DebugProtocol.ProtocolMessage;
    if (packet.type === "response") {
      const response = packet as DebugProtocol.Response;
      const pending = this.pending.get(response.request_seq);
      if (pending === undefined) return;
      this.pending.delete(response.request_seq);
      clearTimeout(pending.timer);
      if (response.success) pending.resolve(response);
      else pending.reject(new DapRequestFailed(pending.command, failureText(response)));
    } else if (packet.type === "event") {
      for (const listener of [...this.listeners]) listener(packet as DebugProtocol.Event);
    } else if (packet.type === "request") {
      // Reverse requests (runInTerminal, startDebugging) are not supported: refuse them rather than
      // leave the adapter waiting for an answer that never comes.
      const request = packet as DebugProtocol.Request;
      if (!this.isClosed) {
        this.output.write(
          encodeDapMessage({
            seq: this.sequence++,
            type: "response",
            request_seq: request.seq,
            command: request.command,
            success: false,
            message: `runbound does not support the reverse request \`${request.command}\`.`,
          }),
        );
      }
    }
  }
}
