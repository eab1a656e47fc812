import { defineResource, type Tier } from "@runbound/tool-kit";

/** How capable (and costly) a worker is: `fast` for small, well-scoped jobs, `good` for harder ones. */
export type WorkerTier = "fast" | "good";

/** Every worker tier. */
export const WORKER_TIERS: readonly WorkerTier[] = ["fast", "good"];

/**
 * Where a worker is:
 * - `queued`: waiting for a free slot (the roster runs at most `concurrency` workers at once);
 * - `running`: its current run is going on;
 * - `completed`: its current run ended well and `output` is its result;
 * - `failed`: its current run ended badly (`failure` says how); `output` holds what it wrote;
 * - `killed`: stopped by `kill` or by the roster's disposal; it never runs again.
 */
export type WorkerStatus = "queued" | "running" | "completed" | "failed" | "killed";

/** Statuses a worker does not leave by itself. */
export const ENDED_STATUSES: readonly WorkerStatus[] = ["completed", "failed", "killed"];

/** Whether a worker in `status` has ended (its current run will not change any more). */
export function hasEnded(status: WorkerStatus): boolean {
  return ENDED_STATUSES.includes(status);
}

/** A worker as it is at one moment: a full picture, never a delta (a missed update cannot leave a stale view). */
export interface WorkerSnapshot {
  /** Stable id within the roster, e.g. `w1`; it stays the same across re-runs. */
  id: string;
  /** The caller's short name for the worker. */
  label: string;
  /** The tier it runs at. */
  tier: WorkerTier;
  /** Where it is now. */
  status: WorkerStatus;
  /** Which run this is: 1 after spawn, one more after each `send`. */
  run: number;
  /** The most capable tool tier the worker may use: the lower of its callers' ceilings and the roster's. */
  ceiling: Tier;
  /** The brief of the current run, follow-up messages included. */
  brief: string;
  /** Milliseconds since the current run was queued, up to now or to its end. */
  elapsedMs: number;
  /** Milliseconds since the current run last wrote output; `null` when it has written none yet. */
  msSinceOutput: number | null;
  /** What the current run wrote so far, or its result once it ended: the last `maxOutputChars` characters. */
  output: string;
  /** How many characters of the run's output were dropped from the front of `output`. */
  droppedChars: number;
  /** Why the current run failed, as a sentence; `null` unless `status` is `failed`. */
  failure: string | null;
}

/** What {@link VibeRosterInstance.spawn} takes. */
export interface SpawnRequest {
  /** The task, complete on its own: the worker sees nothing of the caller's conversation. */
  brief: string;
  /** A short name for lists. */
  label: string;
  /** The tier to run at. */
  tier: WorkerTier;
  /** The caller's ceiling; the worker's tools never exceed it. */
  ceiling: Tier;
}

/** What {@link VibeRosterInstance.wait} takes. */
export interface WaitOptions {
  /** The longest to wait, in milliseconds. */
  timeoutMs: number;
  /** Stops the wait (not the worker): the promise rejects with a `cancelled`/`timeout` ToolError. */
  signal: AbortSignal;
}

/** What a wait found. */
export interface WaitOutcome {
  /** The worker when the wait ended. */
  snapshot: WorkerSnapshot;
  /** True when the worker was still queued or running when the wait's time ran out (not a failure). */
  timedOut: boolean;
  /**
   * How many waits in a row, this one included, timed out without the worker making progress since
   * the wait before (no output, no new run, no status change); 0 when this wait ended or saw progress.
   */
  waitsWithoutProgress: number;
}

/** What a send or a kill found before it acted. */
export interface ChangeOutcome {
  /** The worker's status just before the call. */
  previousStatus: WorkerStatus;
  /** The worker after the call. */
  snapshot: WorkerSnapshot;
}

/** The roster of background workers of one run; what the vibe tools depend on. */
export interface VibeRosterInstance {
  /** The tiers this roster can run (a process roster without a command for a tier cannot). */
  readonly tiers: readonly WorkerTier[];
  /** How many workers run at once; more wait `queued`. */
  readonly concurrency: number;
  /**
   * Start a worker in the background and return at once (queued when every slot is busy).
   * @throws `unavailable` for a tier the roster cannot run or once the roster is disposed.
   */
  spawn(request: SpawnRequest): WorkerSnapshot;
  /**
   * Append `message` to the worker's brief, stop its current run (its whole process tree) and start
   * the next run; the ceiling becomes the lower of the worker's and `ceiling`.
   * @throws `not_found` for an unknown id, `conflict` for a killed worker.
   */
  send(id: string, message: string, ceiling: Tier): Promise<ChangeOutcome>;
  /** Wait until the worker's current run ends or the time runs out. @throws `not_found` for an unknown id. */
  wait(id: string, options: WaitOptions): Promise<WaitOutcome>;
  /** Stop the worker for good; idempotent (an ended worker keeps its status). @throws `not_found`. */
  kill(id: string): Promise<ChangeOutcome>;
  /** Every worker, in spawn order. */
  list(): WorkerSnapshot[];
  /** For status views: the tiers, the concurrency and what runs now; starts nothing. */
  describe(): string;
  /** Kill every worker and refuse new ones; resolves when their runs are over. Idempotent. */
  dispose(): Promise<void>;
}

/** The key the vibe tools reach the roster by. */
export const VibeRoster = defineResource<VibeRosterInstance>(
  "vibe.roster",
  "The run's background workers (command-line agents or the runner's own agent loop); attached by the host when vibe mode is on.",
);
