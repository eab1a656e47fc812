import type { ProgressToken } from "vscode-languageserver-protocol";

/** A request the server left unanswered for the whole bound. */
export interface HungRequest {
  /** The request's method, e.g. `textDocument/references`. */
  method: string;
  /** The bound it exceeded, in milliseconds. */
  boundMs: number;
  /** When it was found unanswered (ms since the epoch). */
  at: number;
}

interface Watched {
  method: string;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Notices a server that stopped answering: every request it watches must be answered (a result or an
 * error, which a server owes even for a request cancelled with `$/cancelRequest`) within `boundMs`, so
 * the clock keeps running after the caller gave up. The clock counts only while the server reports
 * no `$/progress` work — a server indexing or checking is busy, not hung — and every request gets a
 * fresh bound when the last work ends, since a server answers what queued up meanwhile only after it.
 */
export class RequestWatchdog {
  private readonly watched = new Set<Watched>();
  // Every work counts here, also those the progress tracker leaves out of `current()` (a check of a change).
  private readonly work = new Set<ProgressToken>();
  private fired = false;

  constructor(
    private readonly boundMs: number,
    private readonly onHung: (request: HungRequest) => void,
  ) {}

  /** Watch `answer` until it settles; resolves and rejects as `answer` does. */
  watch<R>(method: string, answer: Promise<R>): Promise<R> {
    const entry: Watched = { method, timer: undefined };
    this.watched.add(entry);
    this.arm(entry);
    const release = (): void => {
      clearTimeout(entry.timer);
      this.watched.delete(entry);
    };
    answer.then(release, release);
    return answer;
  }

  /** Call with every `$/progress`: a begin pauses the clocks, the end of the last work starts them anew. */
  progress(token: ProgressToken, value: unknown): void {
    const kind = typeof value === "object" && value !== null ? (value as { kind?: unknown }).kind : undefined;
    if (kind === "begin") this.work.add(token);
    else if (kind === "end") this.work.delete(token);
    else return;
    const busy = this.busy();
    for (const entry of this.watched) {
      if (busy) {
        clearTimeout(entry.timer);
        entry.timer = undefined;
      } else {
        this.arm(entry);
      }
    }
  }

  /** Stop every clock; nothing is reported any more. */
  dispose(): void {
    this.fired = true;
    for (const entry of this.watched) clearTimeout(entry.timer);
    this.watched.clear();
  }

  private busy(): boolean {
    return this.work.size > 0;
  }

  private arm(entry: Watched): void {
    if (this.fired || entry.timer !== undefined || this.busy()) return;
    entry.timer = setTimeout(() => {
      if (this.fired) return;
      this.dispose();
      this.onHung({ method: entry.method, boundMs: this.boundMs, at: Date.now() });
    }, this.boundMs);
    // A hung server must not keep the host alive on its own; its pipes decide that.
    entry.timer.unref();
  }
}

/** A bound for messages: `15 s`, `1.5 s`. */
export function describeBound(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
