import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from "vscode-languageserver-protocol";

/** One piece of work a server reported through `$/progress` and has not ended yet. */
export interface ActiveProgress {
  /** The work's title, e.g. `Initializing JS/TS language features`. */
  title: string;
  /** The latest message, if any. */
  message?: string;
  /** 0–100, when the server reports it. */
  percentage?: number;
}

type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/**
 * The work a server is doing right now, from `$/progress` (begin/report/end per token). While any is
 * active the server is indexing and its answers may be partial.
 */
export class ProgressTracker {
  private readonly active = new Map<ProgressToken, ActiveProgress>();
  private readonly listeners = new Set<(progress: ActiveProgress) => void>();
  private readonly watchers = new Set<() => void>();

  /** Apply one `$/progress` value; values of unknown shape are ignored (a server's bug, not ours to crash on). */
  update(token: ProgressToken, value: unknown): void {
    const progress = value as Partial<ProgressValue> | null;
    if (progress === null || typeof progress !== "object") return;
    if (progress.kind === "begin") {
      const begin = progress as WorkDoneProgressBegin;
      this.set(token, { title: String(begin.title), ...this.details(begin) });
    } else if (progress.kind === "report") {
      const current = this.active.get(token);
      if (current !== undefined) this.set(token, { ...current, ...this.details(progress as WorkDoneProgressReport) });
    } else if (progress.kind === "end") {
      this.active.delete(token);
    }
    for (const watcher of [...this.watchers]) watcher();
  }

  /**
   * Wait until `done()` holds after some progress change, or `signal` aborts (no rejection either way).
   * @returns whether `done()` held.
   */
  async waitUntil(done: () => boolean, signal: AbortSignal): Promise<boolean> {
    if (done()) return true;
    if (signal.aborted) return false;
    return new Promise((resolve) => {
      const finish = (): void => {
        this.watchers.delete(check);
        signal.removeEventListener("abort", finish);
        resolve(done());
      };
      const check = (): void => {
        if (done()) finish();
      };
      this.watchers.add(check);
      signal.addEventListener("abort", finish, { once: true });
    });
  }

  /** The work still going on. */
  current(): ActiveProgress[] {
    return [...this.active.values()];
  }

  /** Call `listener` on every begin and report. @returns a function that stops listening. */
  listen(listener: (progress: ActiveProgress) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private details(value: WorkDoneProgressBegin | WorkDoneProgressReport): Omit<ActiveProgress, "title"> {
    return {
      ...(typeof value.message === "string" ? { message: value.message } : {}),
      ...(typeof value.percentage === "number" ? { percentage: value.percentage } : {}),
    };
  }

  private set(token: ProgressToken, progress: ActiveProgress): void {
    this.active.set(token, progress);
    for (const listener of this.listeners) listener(progress);
  }
}
