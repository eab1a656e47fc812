import { headOf, tailOf } from "@runbound/runtime-kit";
import type { WorkerSnapshot } from "./vibe-roster.js";

/** A duration for the model: `0.4 s`, `12 s`, `3 min 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/** How long ago the current run last wrote output. */
export function describeLastOutput(snapshot: WorkerSnapshot): string {
  return snapshot.msSinceOutput === null
    ? "no output yet"
    : `last output ${formatDuration(snapshot.msSinceOutput)} ago`;
}

/** `running (run 2, elapsed 12 s, last output 3.0 s ago)`: the status with what says whether it is alive. */
export function describeStatus(snapshot: WorkerSnapshot): string {
  const facts = [`run ${snapshot.run}`, `elapsed ${formatDuration(snapshot.elapsedMs)}`];
  if (snapshot.status === "running") facts.push(describeLastOutput(snapshot));
  return `${snapshot.status} (${facts.join(", ")})`;
}

/** The end of the worker's output, at most `limit` characters, saying what was left out. */
export function outputTail(snapshot: WorkerSnapshot, limit: number): string {
  const omitted = snapshot.droppedChars + Math.max(0, snapshot.output.length - limit);
  const shown = tailOf(snapshot.output, limit);
  return omitted > 0 ? `(the first ${omitted} characters are not shown)\n${shown}` : shown;
}

/** The worker for `structured`, with its output cut to `resultLimit` characters (the end kept). */
export function workerView(snapshot: WorkerSnapshot, resultLimit: number): Record<string, unknown> {
  return {
    worker_id: snapshot.id,
    label: snapshot.label,
    tier: snapshot.tier,
    status: snapshot.status,
    run: snapshot.run,
    ceiling: snapshot.ceiling,
    elapsed_seconds: Math.round(snapshot.elapsedMs / 100) / 10,
    seconds_since_output: snapshot.msSinceOutput === null ? null : Math.round(snapshot.msSinceOutput / 100) / 10,
    last_result: snapshot.output.length === 0 ? null : tailOf(snapshot.output, resultLimit),
    failure: snapshot.failure === null ? null : headOf(snapshot.failure, 1_000),
  };
}
