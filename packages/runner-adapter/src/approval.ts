import type { AnyTool, CallerInfo } from "@runbound/tool-kit";

/** What the host's policy says about one call. */
export type ApprovalDecision = "allow" | "deny" | "ask";

/** One call awaiting a decision. */
export interface ApprovalRequest {
  /** The tool being called. */
  tool: AnyTool;
  /** The validated input. */
  input: unknown;
  /** Who is calling. */
  caller: CallerInfo;
  /** The run's id. */
  runId: string;
}

/**
 * Host-supplied: decides per call. To deny with its own reason (which policy denied, how to get the
 * call allowed), a policy throws a `denied` ToolError instead of answering "deny": the call is not
 * run, no approver is asked, and the error is the call's answer as it stands. A policy that waits (it
 * asks someone else, e.g. a worker's caller) stops when `signal` aborts: the call was cancelled.
 */
export type ApprovalPolicy = (
  request: ApprovalRequest,
  signal: AbortSignal,
) => ApprovalDecision | Promise<ApprovalDecision>;

/** A human (or a UI) that answers "ask" decisions. */
export interface Approver {
  /** Resolve true to allow, false to deny. Must honour `signal`. */
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
}

/** The default policy: every visible call is allowed (visibility already applied the tier ceiling). */
export const allowAll: ApprovalPolicy = () => "allow";

/** A policy that asks before any call whose tier is in `tiers`, and allows the rest. */
export function askFor(tiers: ReadonlyArray<AnyTool["tier"]>): ApprovalPolicy {
  return (request) => (tiers.includes(request.tool.tier) ? "ask" : "allow");
}
