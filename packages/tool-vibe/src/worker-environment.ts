import type { Tier } from "@runbound/tool-kit";
import type { WorkerRunRequest } from "./function-roster.js";

/**
 * The environment variables a process worker gets besides its host's. A runner started as a worker
 * (`runbound session`, an agent CLI behind a wrapper) must read `RUNBOUND_CEILING` and offer no tool
 * above it: that is how a plan-mode caller's workers stay read-only. It must also read `RUNBOUND_ASK`
 * and never run a call of those tiers unasked: vibe_spawn is a read tool that nobody approves, so
 * without it a worker would be a way around its caller's `--ask`.
 */
export const WORKER_ENVIRONMENT = Object.freeze({
  /** `fast` or `good`: the tier the worker was spawned at (a wrapper picks its model from it). */
  tier: "RUNBOUND_WORKER_TIER",
  /** `read`, `write` or `exec`: the most capable tool tier the worker may use. */
  ceiling: "RUNBOUND_CEILING",
  /**
   * The tiers whose calls the caller's approval policy asks about, comma-separated (`write,exec`),
   * or `none`. Set only when the host gave the roster its `askTiers`; otherwise the worker inherits
   * whatever the host's own environment holds.
   */
  ask: "RUNBOUND_ASK",
  /**
   * The file descriptor (3) of the approval channel to the roster, set only when the roster can ask
   * its caller: a worker asks there before a call of a `RUNBOUND_ASK` tier, and denies it when unset.
   */
  approvals: "RUNBOUND_APPROVAL_FD",
  /** The worker's id in its roster, e.g. `w1`. */
  id: "RUNBOUND_WORKER_ID",
  /** The run number, 1 after spawn and one more after each follow-up message. */
  run: "RUNBOUND_WORKER_RUN",
});

/** The value of `RUNBOUND_ASK` for these tiers: `write,exec`, or `none` (never empty: an empty value reads as unset). */
export function formatAskTiers(tiers: readonly Tier[]): string {
  return tiers.length === 0 ? "none" : [...new Set(tiers)].join(",");
}

/**
 * The variables of {@link WORKER_ENVIRONMENT} for one run; `askTiers` undefined leaves `RUNBOUND_ASK`
 * out, `approvalFd` undefined `RUNBOUND_APPROVAL_FD`.
 */
export function workerEnvironment(
  request: Pick<WorkerRunRequest, "tier" | "ceiling" | "workerId" | "run">,
  askTiers?: readonly Tier[],
  approvalFd?: number,
): Record<string, string> {
  return {
    [WORKER_ENVIRONMENT.tier]: request.tier,
    [WORKER_ENVIRONMENT.ceiling]: request.ceiling,
    ...(askTiers === undefined ? {} : { [WORKER_ENVIRONMENT.ask]: formatAskTiers(askTiers) }),
    ...(approvalFd === undefined ? {} : { [WORKER_ENVIRONMENT.approvals]: String(approvalFd) }),
    [WORKER_ENVIRONMENT.id]: request.workerId,
    [WORKER_ENVIRONMENT.run]: String(request.run),
  };
}
