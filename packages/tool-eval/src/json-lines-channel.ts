import type { OwnedProcess } from "@runbound/process-kit";
import { createInterface } from "node:readline";

/** One JSON object per line in each direction over a child's stdin/stdout. */
export interface JsonLinesChannel<Incoming, Outgoing> {
  send(message: Outgoing): void;
  /** Listen to every message the child sends, in order. */
  onMessage(listener: (message: Incoming) => void): void;
  /** Stop reading. */
  close(): void;
}

/**
 * The channel to a kernel process. Only the kernel's runner writes on its stdout, so a line that is
 * not JSON means the channel can no longer be trusted: the process is stopped at once.
 */
export function jsonLinesChannel<Incoming, Outgoing>(child: OwnedProcess): JsonLinesChannel<Incoming, Outgoing> {
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  return {
    send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    onMessage(listener) {
      lines.on("line", (line) => {
        let message: Incoming;
        try {
          message = JSON.parse(line) as Incoming;
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
