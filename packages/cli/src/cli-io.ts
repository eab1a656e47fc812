import type { Readable, Writable } from "node:stream";

/** The streams a command uses; the binary passes the process's, tests their own. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** Write a line and wait until the stream took it (so nothing is lost when the process exits). */
export function writeLine(stream: Writable, line: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(`${line}\n`, (error) => (error ? reject(error) : resolve())));
}

/** Whether a stream is a terminal, where a person reads (or types) as it happens. */
export function isTerminal(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
