import type { WorkerRunRequest } from "./function-roster.js";

/**
 * The environment variables a process worker gets besides its host's. A runner started as a worker
 * (`runbound session`, an agent CLI behind a wrapper) must read `RUNBOUND_CEILING` and offer no tool
 * above it: that is how a plan-mode caller's workers stay read-only.
 */
export const WORKER_ENVIRONMENT = Object.freeze({
  /** `fast` or `good`: the tier the worker was spawned at (a wrapper picks its model from it). */
  tier: "RUNBOUND_WORKER_TIER",
  /** `read`, `write` or `exec`: the most capable tool tier the worker may use. */
  ceiling: "RUNBOUND_CEILING",
  /** The worker's id in its roster, e.g. `w1`. */
  id: "RUNBOUND_WORKER_ID",
  /** The run number, 1 after spawn and one more after each follow-up message. */
  run: "RUNBOUND_WORKER_RUN",
});

/** The variables of {@link WORKER_ENVIRONMENT} for one run. */
export function workerEnvironment(request: Pick<WorkerRunRequest, "tier" | "ceiling" | "workerId" | "run">): Record<string, string> {
  return {
    [WORKER_ENVIRONMENT.tier]: request.tier,
    [WORKER_ENVIRONMENT.ceiling]: request.ceiling,
    [WORKER_ENVIRONMENT.id]: request.workerId,
    [WORKER_ENVIRONMENT.run]: String(request.run),
  };
}
