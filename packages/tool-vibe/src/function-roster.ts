import { abortedError, lowerTier, ToolError, type Tier } from "@runbound/tool-kit";
import { OutputTail } from "./output-tail.js";
import {
  hasEnded,
  WORKER_TIERS,
  type ChangeOutcome,
  type SpawnRequest,
  type VibeRosterInstance,
  type WaitOutcome,
  type WorkerSnapshot,
  type WorkerStatus,
  type WorkerTier,
} from "./vibe-roster.js";

/** What one run of a worker gets. */
export interface WorkerRunRequest {
  /** The worker's id, e.g. `w1`. */
  workerId: string;
  /** The run number: 1 after spawn, one more after each send. */
  run: number;
  /** The whole brief, follow-up messages included. */
  brief: string;
  /** The tier to run at. */
  tier: WorkerTier;
  /** The most capable tool tier the worker may use; a runner must not offer it more. */
  ceiling: Tier;
  /** Aborted when the run is stopped (kill, send, disposal): stop and release everything, then settle. */
  signal: AbortSignal;
  /** Report output as it comes: it shows the caller the worker is alive and what it said so far. */
  onOutput(text: string): void;
}

/**
 * Runs one worker run to its end. Resolve with the result (it replaces what `onOutput` reported, unless
 * it is that same text); throw an Error whose message is a sentence for a failure.
 */
export type RunWorker = (request: WorkerRunRequest) => Promise<string>;

/** Settings of {@link createFunctionRoster}. */
export interface RosterSettings {
  /** How many workers run at once; more wait `queued`. Default 2. */
  concurrency?: number;
  /** The workers' own ceiling: a worker gets the lower of this and its caller's. Default `exec`. */
  ceiling?: Tier;
  /** The tiers `runWorker` can run; default both. */
  tiers?: readonly WorkerTier[];
  /** How many characters of a run's output are kept (the end); default 65 536. */
  maxOutputChars?: number;
  /** How many workers one roster may hold, ended ones included; default 100. */
  maxWorkers?: number;
  /**
   * How long a stopped run may take to settle before its slot is given to the next worker anyway
   * (a `runWorker` that ignores its signal); default 5 000 ms.
   */
  settleGraceMs?: number;
  /** More for `describe()`, e.g. the commands of a process roster. */
  describeRunner?: () => string;
}

interface CurrentRun {
  readonly controller: AbortController;
  readonly settled: Promise<void>;
  releaseSlot(): void;
}

interface WorkerState {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  ceiling: Tier;
  brief: string;
  run: number;
  status: WorkerStatus;
  queuedAt: number;
  endedAt: number | undefined;
  lastOutputAt: number | undefined;
  readonly output: OutputTail;
  /** Counts outputs, runs and status changes, so a wait can tell whether anything happened. */
  progress: number;
  failure: string | null;
  current: CurrentRun | undefined;
  /** The stop of the last run that send or kill ended: settles once its process tree is gone. */
  stopping: Promise<void> | undefined;
  /** Set while a send waits for the old run to stop before queueing the next one. */
  restart: Promise<void> | undefined;
  progressAtLastWait: number | undefined;
  waitsWithoutProgress: number;
  readonly listeners: Set<() => void>;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`Roster setting \`${name}\` is \`${value}\`; give a whole number of at least 1.`);
  return value;
}

function failureText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim().length > 0 ? text : "The worker failed without saying why.";
}

// Settles when `work` does or `ms` passed, whichever is first, leaving no timer behind (a host about
// to exit must not wait for a grace nobody needs any more).
function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work, elapsed]).finally(() => clearTimeout(timer));
}

/**
 * A roster whose workers are runs of `runWorker`: for a runner with its own agent loop, and the core
 * every roster shares (the process roster is this roster over a function that starts a process).
 * Workers beyond `concurrency` wait in order; a send re-runs a worker ahead of the queue, because it
 * held a slot already.
 */
export function createFunctionRoster(runWorker: RunWorker, settings: RosterSettings = {}): VibeRosterInstance {
  const concurrency = positiveInteger(settings.concurrency ?? 2, "concurrency");
  const maxOutputChars = positiveInteger(settings.maxOutputChars ?? 65_536, "maxOutputChars");
  const maxWorkers = positiveInteger(settings.maxWorkers ?? 100, "maxWorkers");
  const settleGraceMs = settings.settleGraceMs ?? 5_000;
  const rosterCeiling = settings.ceiling ?? "exec";
  const tiers = Object.freeze([...(settings.tiers ?? WORKER_TIERS)]);
  const workers = new Map<string, WorkerState>();
  const queue: WorkerState[] = [];
  let busySlots = 0;
  let disposed: Promise<void> | undefined;

  function changed(worker: WorkerState): void {
    worker.progress += 1;
    for (const listener of [...worker.listeners]) listener();
  }

  function snapshot(worker: WorkerState): WorkerSnapshot {
    const now = Date.now();
    return {
      id: worker.id,
      label: worker.label,
      tier: worker.tier,
      status: worker.status,
      run: worker.run,
      ceiling: worker.ceiling,
      brief: worker.brief,
      elapsedMs: (worker.endedAt ?? now) - worker.queuedAt,
      msSinceOutput: worker.lastOutputAt === undefined ? null : now - worker.lastOutputAt,
      output: worker.output.value,
      droppedChars: worker.output.droppedChars,
      failure: worker.failure,
    };
  }

  function find(id: string): WorkerState {
    const worker = workers.get(id);
    if (worker !== undefined) return worker;
    const known = [...workers.keys()].map((known) => `\`${known}\``).join(", ");
    throw new ToolError({
      code: "not_found",
      message:
        workers.size === 0
          ? `There is no worker \`${id}\`: no worker has been spawned in this run. Start one with vibe_spawn.`
          : `There is no worker \`${id}\`. The workers of this run are ${known}; call vibe_list to see them.`,
    });
  }

  function refuseWhenDisposed(): void {
    if (disposed !== undefined) {
      throw new ToolError({
        code: "unavailable",
        message: "The worker roster of this run has been shut down (the run is ending); no worker can start or re-run.",
      });
    }
  }

  function end(worker: WorkerState, status: WorkerStatus): void {
    worker.status = status;
    worker.endedAt = Date.now();
    worker.current = undefined;
    changed(worker);
  }

  function start(worker: WorkerState): void {
    busySlots += 1;
    // Called once per run: by `ended` for a run that ended by itself, by stopCurrent for a stopped one.
    const releaseSlot = (): void => {
      busySlots -= 1;
      pump();
    };
    const controller = new AbortController();
    const isCurrent = (): boolean => worker.current === current && !controller.signal.aborted;
    // An ended run frees its slot at once; a stopped one only through stopCurrent, once it settled, so
    // the worker's re-run can take the slot back before the queue does.
    const ended = (status: WorkerStatus): void => {
      end(worker, status);
      releaseSlot();
    };
    let running: Promise<string>;
    try {
      running = runWorker({
        workerId: worker.id,
        run: worker.run,
        brief: worker.brief,
        tier: worker.tier,
        ceiling: worker.ceiling,
        signal: controller.signal,
        onOutput: (text) => {
          if (!isCurrent() || text.length === 0) return;
          worker.output.append(text);
          worker.lastOutputAt = Date.now();
          changed(worker);
        },
      });
    } catch (error) {
      running = Promise.reject(error);
    }
    const settled = running.then(
      (result) => {
        if (!isCurrent()) return;
        // A runner that streamed its result already (a process's stdout) resolves with that same text;
        // keeping it keeps the count of what was dropped from its front.
        if (result !== worker.output.value) worker.output.replace(result);
        ended("completed");
      },
      (error: unknown) => {
        if (!isCurrent()) return;
        worker.failure = failureText(error);
        ended("failed");
      },
    );
    const current: CurrentRun = { controller, settled, releaseSlot };
    worker.status = "running";
    worker.current = current;
    changed(worker);
  }

  function pump(): void {
    while (busySlots < concurrency && queue.length > 0) start(queue.shift()!);
  }

  // Ends the current run: abort it, then wait (bounded) until it settled, so its process tree is gone
  // before a re-run starts or kill answers. `beforeRelease` queues a re-run while the slot is still held.
  function stopCurrent(worker: WorkerState, beforeRelease?: () => void): Promise<void> {
    const current = worker.current!;
    worker.current = undefined;
    current.controller.abort(new ToolError({ code: "cancelled", message: `Worker \`${worker.id}\` was stopped.` }));
    const stopping = settledWithin(current.settled, settleGraceMs).then(() => {
      beforeRelease?.();
      current.releaseSlot();
    });
    worker.stopping = stopping;
    return stopping;
  }

  function untilEnded(worker: WorkerState, timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const aborted = (): ToolError =>
        abortedError(signal, {
          timeout: `The wait for worker \`${worker.id}\` ran past the call's own time limit; the worker goes on. Call vibe_wait again with a smaller \`timeout_seconds\`.`,
          cancelled: `The wait for worker \`${worker.id}\` was cancelled; the worker goes on in the background.`,
        });
      if (signal.aborted) {
        reject(aborted());
        return;
      }
      const finish = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        worker.listeners.delete(onChange);
      };
      const onChange = (): void => {
        if (!hasEnded(worker.status)) return;
        finish();
        resolve();
      };
      const onAbort = (): void => {
        finish();
        reject(aborted());
      };
      const timer = setTimeout(() => {
        finish();
        resolve();
      }, timeoutMs);
      worker.listeners.add(onChange);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  async function kill(id: string): Promise<ChangeOutcome> {
    const worker = find(id);
    const previousStatus = worker.status;
    if (worker.status === "queued") {
      const position = queue.indexOf(worker);
      if (position >= 0) queue.splice(position, 1);
      end(worker, "killed");
    } else if (worker.status === "running") {
      void stopCurrent(worker);
      end(worker, "killed");
    }
    // A second kill, or one during a send's restart, still answers only once the tree is gone.
    await worker.stopping;
    return { previousStatus, snapshot: snapshot(worker) };
  }

  return {
    tiers,
    concurrency,

    spawn(request: SpawnRequest): WorkerSnapshot {
      refuseWhenDisposed();
      if (!tiers.includes(request.tier)) {
        throw new ToolError({
          code: "unavailable",
          message: `This run has no \`${request.tier}\` workers; it can run ${tiers.map((tier) => `\`${tier}\``).join(" and ")}. Spawn with one of those tiers.`,
        });
      }
      if (workers.size >= maxWorkers) {
        throw new ToolError({
          code: "unavailable",
          message: `This run already has ${workers.size} workers, the most one run may hold. Re-run an ended worker with vibe_send instead of spawning a new one.`,
        });
      }
      const worker: WorkerState = {
        id: `w${workers.size + 1}`,
        label: request.label,
        tier: request.tier,
        ceiling: lowerTier(request.ceiling, rosterCeiling),
        brief: request.brief,
        run: 1,
        status: "queued",
        queuedAt: Date.now(),
        endedAt: undefined,
        lastOutputAt: undefined,
        output: new OutputTail(maxOutputChars),
        progress: 0,
        failure: null,
        current: undefined,
        stopping: undefined,
        restart: undefined,
        progressAtLastWait: undefined,
        waitsWithoutProgress: 0,
        listeners: new Set(),
      };
      workers.set(worker.id, worker);
      queue.push(worker);
      pump();
      return snapshot(worker);
    },

    async send(id, message, ceiling) {
      const worker = find(id);
      refuseWhenDisposed();
      if (worker.status === "killed") {
        throw new ToolError({
          code: "conflict",
          message: `Worker \`${id}\` was killed and cannot run again. Spawn a new worker with vibe_spawn, giving it the whole brief.`,
        });
      }
      const previousStatus = worker.status;
      if (worker.current !== undefined) {
        worker.restart = stopCurrent(worker, () => {
          worker.restart = undefined;
          // Killed meanwhile (by kill or disposal): it stays killed.
          if (worker.status === "queued") queue.unshift(worker);
        });
      } else if (worker.restart === undefined && !queue.includes(worker)) {
        queue.push(worker);
      }
      worker.brief = `${worker.brief}\n\n${message}`;
      worker.ceiling = lowerTier(worker.ceiling, ceiling);
      worker.run += 1;
      worker.status = "queued";
      worker.queuedAt = Date.now();
      worker.endedAt = undefined;
      worker.lastOutputAt = undefined;
      worker.output.replace("");
      worker.failure = null;
      changed(worker);
      pump();
      await worker.restart;
      return { previousStatus, snapshot: snapshot(worker) };
    },

    async wait(id, options): Promise<WaitOutcome> {
      const worker = find(id);
      const before = worker.progressAtLastWait ?? worker.progress;
      if (!hasEnded(worker.status)) await untilEnded(worker, options.timeoutMs, options.signal);
      const timedOut = !hasEnded(worker.status);
      if (timedOut) {
        worker.waitsWithoutProgress = worker.progress === before ? worker.waitsWithoutProgress + 1 : 0;
        worker.progressAtLastWait = worker.progress;
      } else {
        worker.waitsWithoutProgress = 0;
        worker.progressAtLastWait = undefined;
      }
      return { snapshot: snapshot(worker), timedOut, waitsWithoutProgress: worker.waitsWithoutProgress };
    },

    kill,

    list: () => [...workers.values()].map(snapshot),

    describe() {
      const counts = new Map<WorkerStatus, number>();
      for (const worker of workers.values()) counts.set(worker.status, (counts.get(worker.status) ?? 0) + 1);
      const summary = [...counts].map(([status, count]) => `${count} ${status}`).join(", ");
      const runner = settings.describeRunner?.();
      return [
        `${disposed === undefined ? "open" : "shut down"}; tiers ${tiers.join(", ")}; ${busySlots} of ${concurrency} slots busy; workers' own ceiling ${rosterCeiling}`,
        `${workers.size} ${workers.size === 1 ? "worker" : "workers"}${summary.length > 0 ? ` (${summary})` : ""}`,
        ...(runner === undefined ? [] : [runner]),
      ].join("\n");
    },

    dispose() {
      disposed ??= (async () => {
        queue.length = 0;
        await Promise.all([...workers.keys()].map(kill));
      })();
      return disposed;
    },
  };
}
