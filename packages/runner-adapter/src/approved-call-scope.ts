import { AsyncLocalStorage } from "node:async_hooks";

interface ApprovedCall {
  tool: string;
  taken: boolean;
}

const approvedCalls = new AsyncLocalStorage<ApprovedCall>();

/**
 * Run `call` (one `run.call` of `tool`) as a call whose "ask" was already answered yes by a human
 * outside the run, e.g. the AI SDK's user through its tool-approval flow, so the run's approver is not
 * asked a second time. The grant covers only the first approval check inside `call`: the call itself,
 * never the tools it calls through `ctx.callTool`.
 */
export function withApprovedCall<T>(tool: string, call: () => Promise<T>): Promise<T> {
  return approvedCalls.run({ tool, taken: false }, call);
}

/**
 * Whether the call being approved now was answered yes outside the run. Consumes the grant: the first
 * approval check in the scope takes it whatever its tool, so a nested call never inherits it.
 */
export function takeApprovedCall(tool: string): boolean {
  const grant = approvedCalls.getStore();
  if (grant === undefined || grant.taken) return false;
  grant.taken = true;
  return grant.tool === tool;
}
