import { ToolError } from "@runbound/tool-kit";
import type { ApprovalPolicy, ApprovalRequest, Approver } from "./approval.js";
import { takeApprovedCall } from "./approved-call-scope.js";
import { withBudget } from "@runbound/runtime-kit";

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
export async function approveCall(
  request: ApprovalRequest,
  settings: ApprovalSettings,
  signal: AbortSignal,
): Promise<void> {
  const approvedOutside = takeApprovedCall(request.tool.name);
  const decision = await settings.policy(request, signal);
  if (decision === "allow") return;
  const denied = new ToolError({
    code: "denied",
    message: `Calling \`${request.tool.name}\` was denied. Do not retry the same call; choose another approach or ask the user.`,
  });
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
  // An approver that fails (its UI gone, a bug) has not said yes: the call is denied, saying why,
  // instead of surfacing as the tool's own internal failure.
  const approve = async (approvalSignal: AbortSignal): Promise<boolean> => {
    try {
      return await asked.approve(request, approvalSignal);
    } catch (error) {
      if (approvalSignal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError({
        code: "denied",
        message: `Calling \`${request.tool.name}\` needs approval, and the approver failed (${reason.replace(/[.\s]+$/, "")}), so it was denied. Continue without it or ask the user to run it.`,
        cause: error,
      });
    }
  };
  if (!(await withBudget(approve, { timeoutMs: settings.timeoutMs, signal, label }).result)) throw denied;
}
