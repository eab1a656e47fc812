import { ToolError } from "@runbound/tool-kit";
import type { ApprovalPolicy, ApprovalRequest, Approver } from "./approval.js";
import { takeApprovedCall } from "./approved-call-scope.js";
import { withBudget } from "./with-budget.js";

/** What {@link approveCall} decides with. */
export interface ApprovalSettings {
  policy: ApprovalPolicy;
  /** The approver connected now, if any. */
  approver: Approver | undefined;
  /** How long the approver may take. */
  timeoutMs: number;
}

/**
 * Resolve when the call may run; otherwise throw `denied` (the policy denied, the approver said no, or
 * an "ask" found no approver connected: never a hang) or `timeout`/`cancelled` from the approver's budget.
 * An "ask" already answered yes outside the run (`withApprovedCall`) is not asked again; the
 * policy still decides first, so a denial stays a denial.
 */
export async function approveCall(request: ApprovalRequest, settings: ApprovalSettings, signal: AbortSignal): Promise<void> {
  const approvedOutside = takeApprovedCall(request.tool.name);
  const decision = await settings.policy(request);
  if (decision === "allow") return;
  const denied = new ToolError({ code: "denied", message: `Calling \`${request.tool.name}\` was denied. Do not retry the same call; choose another approach or ask the user.` });
  if (decision === "deny") throw denied;
  if (approvedOutside) return;
  const asked = settings.approver;
  if (asked === undefined) {
    throw new ToolError({
      code: "denied",
      message: `Calling \`${request.tool.name}\` needs approval, and no approver is connected to this run, so it was denied. Continue without it or ask the user to run it.`,
    });
  }
  const label = `The approval of \`${request.tool.name}\``;
  if (!(await withBudget((approvalSignal) => asked.approve(request, approvalSignal), { timeoutMs: settings.timeoutMs, signal, label }).result)) throw denied;
}
