import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { ProtocolErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { MessageSizeGate, type OversizedMessage } from "./message-size-gate.js";

/** The SDK's own stdio limit (`STDIO_DEFAULT_MAX_BUFFER_SIZE`, 10 MiB), kept as the default. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How the transport dealt with a message over the limit. */
export type OversizedAnswer =
  /** A request: answered with a JSON-RPC error under its id. */
  | "request_refused"
  /** A response to one of the server's requests (an elicitation's answer): that request fails with the error. */
  | "response_failed"
  /** A notification, or a message whose id could not be read: there is no one to answer. */
  | "dropped";

/** Settings of {@link SizeLimitedStdioServerTransport}. */
export interface SizeLimitedStdioSettings {
  /** The largest message read, in bytes without its line end; default {@link DEFAULT_MAX_MESSAGE_BYTES}. */
  maxMessageBytes?: number;
  /** Told of every message over the limit and what was done about it (so a host can log it). */
  onOversizedMessage?: (message: OversizedMessage, answer: OversizedAnswer) => void;
}

function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib)
    ? `${mib} MiB (${bytes.toLocaleString("en-US")} bytes)`
    : `${bytes.toLocaleString("en-US")} bytes`;
}

/** The error for an oversized message: what was refused, the limit, and how to send less. */
export function oversizedMessageError(
  message: OversizedMessage,
  maxMessageBytes: number,
): { code: number; message: string; data: { messageBytes: number; maxMessageBytes: number } } {
  const what = message.method === undefined ? "The message" : `The \`${message.method}\` request`;
  return {
    code: ProtocolErrorCode.InvalidRequest,
    message: `${what} is ${message.bytes.toLocaleString("en-US")} bytes, over this stdio connection's limit of ${sizeText(maxMessageBytes)} per message, so it was not read. Send less in one message: write large content to a file in the working directory and pass its path, or split it over several calls.`,
    data: { messageBytes: message.bytes, maxMessageBytes },
  };
}

/**
 * The MCP SDK's stdio server transport with one change: a message over the size limit is refused
 * instead of ending the connection. The SDK's transport reports its buffer overflow as an error and
 * closes, which ends the run and every resource it owns (issue 22, item 3); here a
 * {@link MessageSizeGate} in front of the SDK's reader passes it only whole messages within the limit
 * and answers a larger request with a JSON-RPC error under its own id. Parsing, writing and closing
 * stay the SDK's.
 */
export class SizeLimitedStdioServerTransport extends StdioServerTransport {
  constructor(stdin?: Readable, stdout?: Writable, settings: SizeLimitedStdioSettings = {}) {
    const maxMessageBytes = settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!(Number.isSafeInteger(maxMessageBytes) && maxMessageBytes > 0)) {
      throw new RangeError(
        `\`maxMessageBytes\` \`${maxMessageBytes}\` is not valid; give a positive whole number of bytes, e.g. ${DEFAULT_MAX_MESSAGE_BYTES}.`,
      );
    }
    // The SDK's buffer only ever holds one whole message from the gate, its line end included.
    super(stdin, stdout, { maxBufferSize: maxMessageBytes + 1 });
    // `_ondata` is the SDK's stdin listener (public in its typings): start() attaches it and close()
    // removes it, so replacing it puts the gate in front of the SDK's reader for the whole connection.
    const read = this._ondata;
    const gate = new MessageSizeGate(maxMessageBytes, read, (message) => {
      const answer = this.answerOversized(message, maxMessageBytes);
      settings.onOversizedMessage?.(message, answer);
    });
    this._ondata = (chunk: Buffer | string) => gate.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  }

  private answerOversized(message: OversizedMessage, maxMessageBytes: number): OversizedAnswer {
    if (message.id === undefined || message.id === null) return "dropped";
    const error: JSONRPCMessage = {
      jsonrpc: "2.0",
      id: message.id,
      error: oversizedMessageError(message, maxMessageBytes),
    };
    if (message.method === undefined) {
      // The client's answer to a server request is lost: that request fails with the reason rather
      // than waiting for an answer that will never come.
      this.onmessage?.(error);
      return "response_failed";
    }
    this.send(error).catch((sendError: unknown) =>
      this.onerror?.(sendError instanceof Error ? sendError : new Error(String(sendError))),
    );
    return "request_refused";
  }
}
