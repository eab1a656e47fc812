import type { Duplex } from "node:stream";
import type { Tier } from "@runbound/tool-kit";
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CancellationToken,
} from "vscode-jsonrpc/node";
import {
  callerApprovalRequest,
  type CallerApprovalParams,
  type CallerApprovalResult,
} from "./caller-approval-protocol.js";

/** One call a worker asks its caller to approve. */
export interface WorkerCallApproval {
  /** The asking worker, as the roster knows it (never the worker's own claim). */
  workerId: string;
  /** The worker's ceiling: its caller must not approve a call above it. */
  ceiling: Tier;
  /** The tool the worker wants to call. */
  tool: string;
  /** The input it wants to call it with. */
  input: unknown;
}

/**
 * Decides a worker's call as the caller's own run would decide it (e.g. the runner-adapter's
 * `run.approve`). Resolve to approve; throw an Error whose message says why to deny.
 */
export type WorkerCallApprover = (call: WorkerCallApproval, signal: AbortSignal) => Promise<void>;

// A tool name longer than this is not a tool name; the card quotes the name, so it is bounded.
const maxToolNameChars = 200;

function abortedBy(token: CancellationToken, signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  token.onCancellationRequested(() => controller.abort(new Error("The worker withdrew the question.")));
  return AbortSignal.any([controller.signal, signal]);
}

function malformed(params: unknown): string | undefined {
  const tool = (params as Partial<CallerApprovalParams> | null)?.tool;
  if (typeof tool !== "string" || tool.length === 0 || tool.length > maxToolNameChars) {
    return "The approval request names no tool (`tool` must be a tool name), so it was denied.";
  }
  return undefined;
}

/**
 * Answer a worker's approval requests on `channel` until `signal` aborts (the worker's run ended or
 * was stopped) or the worker closes it. Anything but an approval from `approve` is a denial that
 * says why: a failing approver, a malformed request, a run that was stopped meanwhile.
 */
export function serveCallerApprovals(
  channel: Duplex,
  worker: { workerId: string; ceiling: Tier },
  approve: WorkerCallApprover,
  signal: AbortSignal,
): void {
  const connection = createMessageConnection(new StreamMessageReader(channel), new StreamMessageWriter(channel));
  connection.onRequest(callerApprovalRequest, async (params, token): Promise<CallerApprovalResult> => {
    const problem = malformed(params);
    if (problem !== undefined) return { approved: false, message: problem };
    try {
      await approve({ ...worker, tool: params.tool, input: params.input }, abortedBy(token, signal));
      return { approved: true };
    } catch (error) {
      return { approved: false, message: error instanceof Error ? error.message : String(error) };
    }
  });
  // Garbage on the channel is the worker's problem, not the roster's: it only ends the channel.
  connection.onError(() => channel.destroy());
  const close = (): void => {
    connection.dispose();
    channel.destroy();
  };
  signal.addEventListener("abort", close, { once: true });
  channel.once("close", () => signal.removeEventListener("abort", close));
  connection.listen();
}
