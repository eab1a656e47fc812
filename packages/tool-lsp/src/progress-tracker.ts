import type {
  ProgressToken,
  WorkDoneProgressBegin,
  WorkDoneProgressEnd,
  WorkDoneProgressReport,
} from "vscode-languageserver-protocol";
import { ConditionWatchers } from "./condition-watchers.js";

/** One piece of work a server reported through `$/progress` and has not ended yet. */
export interface ActiveProgress {
  /** The work's title, e.g. `Initializing JS/TS language features`. */
  title: string;
  /** The latest message, if any. */
  message?: string;
  /** 0–100, when the server reports it. */
  percentage?: number;
}

/** A work as callers see it, without how it is classified. */
function publicView(work: ActiveProgress): ActiveProgress {
  return {
    title: work.title,
    ...(work.message === undefined ? {} : { message: work.message }),
    ...(work.percentage === undefined ? {} : { percentage: work.percentage }),
  };
}

type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/** Whether a piece of work is the server diagnosing changes it was sent, not loading or indexing. */
export type IsCheckWork = (token: ProgressToken, title: string) => boolean;

/**
 * The work a server is doing right now, from `$/progress` (begin/report/end per token). While any
 * loading or indexing work is active the server's answers may be partial. Work the server does to
 * diagnose the changes it was sent (gopls' `diagnosing changed files`, pyright's files to analyze) is
 * counted apart: it says when the server has caught up with a write, not that it is indexing.
 */
export class ProgressTracker {
  private readonly active = new Map<ProgressToken, ActiveProgress & { check: boolean }>();
  private readonly listeners = new Set<(progress: ActiveProgress) => void>();
  private readonly watchers = new ConditionWatchers();
  private begunChecks = 0;
  private endedChecks = 0;

  constructor(private readonly isCheck: IsCheckWork = () => false) {}

  /** Apply one `$/progress` value; values of unknown shape are ignored (a server's bug, not ours to crash on). */
  update(token: ProgressToken, value: unknown): void {
    const progress = value as Partial<ProgressValue> | null;
    if (progress === null || typeof progress !== "object") return;
    if (progress.kind === "begin") {
      const begin = progress as WorkDoneProgressBegin;
      const title = String(begin.title);
      const check = this.isCheck(token, title);
      if (check) this.begunChecks += 1;
      this.set(token, { title, ...this.details(begin), check });
    } else if (progress.kind === "report") {
      const current = this.active.get(token);
      if (current !== undefined) this.set(token, { ...current, ...this.details(progress as WorkDoneProgressReport) });
    } else if (progress.kind === "end") {
      if (this.active.get(token)?.check === true) this.endedChecks += 1;
      this.active.delete(token);
    }
    this.watchers.wake();
  }

  /** Wait until `done()` holds after some change, or `signal` aborts. @returns whether it held. */
  waitUntil(done: () => boolean, signal: AbortSignal): Promise<boolean> {
    return this.watchers.waitUntil(done, signal);
  }

  /** The loading and indexing work still going on (diagnosing checks left out). */
  current(): ActiveProgress[] {
    return [...this.active.values()].filter((work) => !work.check).map(publicView);
  }

  /** Diagnosing checks begun and ended so far, and whether one is going on now. */
  checks(): { begun: number; ended: number; active: boolean } {
    return {
      begun: this.begunChecks,
      ended: this.endedChecks,
      active: [...this.active.values()].some((work) => work.check),
    };
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

  private set(token: ProgressToken, progress: ActiveProgress & { check: boolean }): void {
    this.active.set(token, progress);
    if (progress.check) return;
    for (const listener of this.listeners) listener(publicView(progress));
  }
}
