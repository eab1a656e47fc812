import type { ApprovalPolicy } from "@runbound/runner-adapter";
import { ToolError, type Tier } from "@runbound/tool-kit";
import { WORKER_ASK_VARIABLE } from "./worker-ask-tiers.js";

/** The two sources of a run's approvals. */
export interface CliApprovalTiers {
  /** `--ask`: asked of this run's own approver (a terminal, an MCP client), denied where none is connected. */
  askTiers: readonly Tier[];
  /** `RUNBOUND_ASK`: what the caller that started this runbound as a worker asks about. */
  workerAskTiers: readonly Tier[];
}

/**
 * The run's approval policy. A tier of `RUNBOUND_ASK` is denied outright, whatever approver this run
 * has: the approval belongs to the caller's operator, and a worker's stdin is its brief, not that
 * operator (an approver attached here could be answered by the brief itself). Routing the question
 * to the caller would need a channel from the worker back to the caller's roster, which workers do
 * not have; until they do, the denial says so, and the worker can report the step back.
 */
export function createCliApprovalPolicy({ askTiers, workerAskTiers }: CliApprovalTiers): ApprovalPolicy {
  return ({ tool }) => {
    if (workerAskTiers.includes(tool.tier)) {
      throw new ToolError({
        code: "denied",
        message:
          `Calling \`${tool.name}\` needs approval: this runbound runs as a worker, the run that started it asks before \`${tool.tier}\` calls ` +
          `(${WORKER_ASK_VARIABLE}=${workerAskTiers.join(",")}), and no operator of that caller can be reached from a worker, so it was denied. ` +
          `Do not retry; finish what you can without it and report that this step needs \`${tool.name}\`, so the caller can do it or approve it.`,
      });
    }
    return askTiers.includes(tool.tier) ? "ask" : "allow";
  };
}

/** The tiers a worker of this run must ask about: every tier this run asks about, for either reason. */
export function askTiersForWorkers({ askTiers, workerAskTiers }: CliApprovalTiers): Tier[] {
  return [...new Set([...workerAskTiers, ...askTiers])];
}
