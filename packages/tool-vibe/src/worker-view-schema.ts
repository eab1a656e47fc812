import * as v from "valibot";
import { WORKER_TIERS, type WorkerStatus } from "./vibe-roster.js";

const statuses: readonly WorkerStatus[] = ["queued", "running", "completed", "failed", "killed"];

/** One worker as every vibe tool's `structured` shows it (see `workerView`). */
export const workerViewSchema = v.object({
  worker_id: v.pipe(v.string(), v.description("The worker's id, e.g. `w1`.")),
  label: v.pipe(v.string(), v.description("The label given at spawn.")),
  tier: v.pipe(v.picklist(WORKER_TIERS), v.description("The worker tier it runs at.")),
  status: v.pipe(v.picklist(statuses), v.description("Where its current run is.")),
  run: v.pipe(v.number(), v.description("The run number: 1 after spawn, one more after each vibe_send.")),
  ceiling: v.pipe(v.picklist(["read", "write", "exec"]), v.description("The most capable tool tier it may use.")),
  elapsed_seconds: v.pipe(v.number(), v.description("Seconds since its current run was queued.")),
  seconds_since_output: v.pipe(
    v.nullable(v.number()),
    v.description("Seconds since it last wrote output; null before any."),
  ),
  last_result: v.pipe(
    v.nullable(v.string()),
    v.description("The end of its output so far (or its result once ended); null before any."),
  ),
  failure: v.pipe(v.nullable(v.string()), v.description("Why its run failed; null otherwise.")),
});

/** `structured` of vibe_spawn. */
export const spawnOutputSchema = v.object({ worker: workerViewSchema });

/** `structured` of vibe_send and vibe_kill: the worker, and the status its run had before. */
export const changeOutputSchema = v.object({
  previous_status: v.pipe(v.picklist(statuses), v.description("The status of the run the call ended or replaced.")),
  worker: workerViewSchema,
});

/** `structured` of vibe_wait. */
export const waitOutputSchema = v.object({
  timed_out: v.pipe(v.boolean(), v.description("True when the worker was still running at the end of the wait.")),
  waits_without_progress: v.pipe(
    v.number(),
    v.description("Waits in a row that saw no new output and no status change."),
  ),
  worker: workerViewSchema,
});

/** `structured` of vibe_list. */
export const listOutputSchema = v.object({ workers: v.array(workerViewSchema) });
