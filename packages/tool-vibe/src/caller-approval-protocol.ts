import { RequestType } from "vscode-jsonrpc/node";

/**
 * The approval channel between a process worker and the roster that started it: JSON-RPC on the
 * worker's file descriptor {@link CALLER_APPROVAL_FD}, named to the worker in `RUNBOUND_APPROVAL_FD`.
 * The worker asks before a call of a tier its caller asks about (`RUNBOUND_ASK`); the roster decides
 * it as its own run would decide that call (its policy, then its operator) and answers. The worker
 * does not name itself: the roster knows which worker holds the channel.
 */
export const CALLER_APPROVAL_FD = 3;

/** One call a worker wants to run. */
export interface CallerApprovalParams {
  /** The tool's name in the worker's run. */
  tool: string;
  /** Its validated input, as the worker's run would pass it. */
  input: unknown;
}

/** The caller's decision; `message` says why when it is not approved (a sentence for the model). */
export type CallerApprovalResult = { approved: true } | { approved: false; message: string };

export const callerApprovalRequest = new RequestType<CallerApprovalParams, CallerApprovalResult, void>(
  "runbound/approveWorkerCall",
);
