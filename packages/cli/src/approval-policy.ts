import type { ApprovalPolicy } from "@runbound/runner-adapter";
import { ToolError, type Tier } from "@runbound/tool-kit";
import type { CallerApprovals } from "@runbound/tool-vibe";
import { WORKER_ASK_VARIABLE } from "./worker-ask-tiers.js";

/** The two sources of a run's approvals. */
export interface CliApprovalTiers {
  /** `--ask`: asked of this run's own approver (a terminal, an MCP client), denied where none is connected. */
  askTiers: readonly Tier[];
  /** `RUNBOUND_ASK`: what the caller that started this runbound as a worker asks about. */
  workerAskTiers: readonly Tier[];
  /** The channel to that caller (`RUNBOUND_APPROVAL_FD`), when its roster gave one. */
  callerApprovals?: CallerApprovals | undefined;
}

function deniedForWorker(tool: { name: string; tier: Tier }, workerAskTiers: readonly Tier[], why: string): ToolError {
  return new ToolError({
    code: "denied",
    message:
      `Calling \`${tool.name}\` needs approval: this runbound runs as a worker, the run that started it asks before \`${tool.tier}\` calls ` +
      `(${WORKER_ASK_VARIABLE}=${workerAskTiers.join(",")}), and ${why} Do not retry; finish what you can without it and report that this step needs \`${tool.name}\`, so the caller can do it or approve it.`,
  });
}

/**
 * The run's approval policy. A call of a `RUNBOUND_ASK` tier is decided by the caller that started
 * this runbound as a worker, over the approval channel its roster gave (its own policy, then its
 * operator); without a channel it is denied outright. Never by an approver attached here: a worker's
 * stdin is its brief, not that operator, and the brief could answer its own question. A call the caller
 * approved is still asked about here when `--ask` names its tier too.
 */
export function createCliApprovalPolicy({
  askTiers,
  workerAskTiers,
  callerApprovals,
}: CliApprovalTiers): ApprovalPolicy {
  return async ({ tool, input }, signal) => {
    if (workerAskTiers.includes(tool.tier)) {
      if (callerApprovals === undefined)
        throw deniedForWorker(
          tool,
          workerAskTiers,
          "no operator of that caller can be reached from this worker, so it was denied.",
        );
      const answer = await callerApprovals.approve(tool.name, input, signal);
      if (!answer.approved) throw deniedForWorker(tool, workerAskTiers, `the caller answered: ${answer.message}`);
    }
    return askTiers.includes(tool.tier) ? "ask" : "allow";
  };
}

/** The tiers a worker of this run must ask about: every tier this run asks about, for either reason. */
export function askTiersForWorkers({ askTiers, workerAskTiers }: CliApprovalTiers): Tier[] {
  return [...new Set([...workerAskTiers, ...askTiers])];
}
