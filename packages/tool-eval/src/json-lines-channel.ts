import { randomBytes } from "node:crypto";
import type { OwnedProcess } from "@runbound/runtime-kit";
import { createInterface } from "node:readline";

/** One JSON object per line in each direction over a child's stdin/stdout. */
export interface JsonLinesChannel<Incoming, Outgoing> {
  send(message: Outgoing): void;
  /** Listen to every message the child sends, in order. */
  onMessage(listener: (message: Incoming) => void): void;
  /** Stop reading. */
  close(): void;
}

/** What {@link jsonLinesChannel} needs to tell the kernel's frames from anything else on its stdout. */
export interface JsonLinesChannelOptions {
  /**
   * The kernel's channel secret (see {@link createChannelSecret}): the host sends it as the first line
   * (`{"type": "channel", "secret": …}`) and the kernel starts every frame it writes with it and a space.
   */
  secret: string;
  /**
   * Called with text on the channel that did not come with the secret (a cell wrote to the channel's
   * descriptor): it is shown as output, never obeyed. Without a trailing newline when it was cut off by a
   * frame that followed it.
   */
  onForeignText(text: string): void;
}

/**
 * A fresh per-kernel secret. It travels only over the kernel's stdin, before any cell runs: never in
 * its arguments or environment, which a cell (and `ps`) can read.
 */
export function createChannelSecret(): string {
  return randomBytes(16).toString("hex");
}

/**
 * Split one line from a kernel into what precedes the first frame marker (foreign text; a write the
 * frame was glued to) and the frame after the marker, if the line has one.
 */
export function splitFrameLine(line: string, marker: string): { foreign: string; frame: string | undefined } {
  const at = line.indexOf(marker);
  if (at < 0) return { foreign: line, frame: undefined };
  return { foreign: line.slice(0, at), frame: line.slice(at + marker.length) };
}

/**
 * The channel to a kernel process. A cell runs in the kernel and could write to the channel's descriptor
 * too, so only lines carrying the kernel's secret are frames; other text goes to `onForeignText`. A
 * line that carries the secret but is not JSON means a frame was damaged (something wrote into the middle
 * of it): the channel can no longer be trusted and the process is stopped at once.
 */
export function jsonLinesChannel<Incoming, Outgoing>(
  child: OwnedProcess,
  options: JsonLinesChannelOptions,
): JsonLinesChannel<Incoming, Outgoing> {
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  const marker = `${options.secret} `;
  child.stdin.write(`${JSON.stringify({ type: "channel", secret: options.secret })}\n`);
  return {
    send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    onMessage(listener) {
      lines.on("line", (line) => {
        const { foreign, frame } = splitFrameLine(line, marker);
        if (frame === undefined) {
          options.onForeignText(`${foreign}\n`);
          return;
        }
        if (foreign !== "") options.onForeignText(foreign);
        let message: Incoming;
        try {
          message = JSON.parse(frame) as Incoming;
        } catch {
          void child.stop({ graceMs: 0 });
          return;
        }
        listener(message);
      });
    },
    close: () => lines.close(),
  };
}
