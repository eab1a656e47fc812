import { AsyncLocalStorage } from "node:async_hooks";
import type { ElicitResult } from "@modelcontextprotocol/server";
import type { CallRounds } from "./call-rounds.js";
import type { FormQuestion, QuestionBoard } from "./question-board.js";

/** What the connected MCP client can do for the host, handed over once the client is known. */
export interface McpClientSession {
  /** The client's name and version, as it declared them. */
  clientInfo: { name: string; version: string } | undefined;
  /** The protocol revision the connection speaks (`2026-07-28`, or a 2025-era one). */
  protocolVersion: string | undefined;
  /** True when the client declared form elicitation: its user can be asked. */
  supportsElicitation: boolean;
  /**
   * Ask the client's user with a form. On a 2025-era connection it is an `elicitation/create` request,
   * withdrawn on the client's side when `signal` aborts. On a 2026-07-28 connection, which has no
   * requests from server to client, the tool call that asks answers "input required" and the client
   * retries it with the answer; a question asked outside any call (a background worker's approval)
   * goes out with the next round of any call. Bounded by `signal` and by the serve's answer timeout.
   */
  elicit(request: FormQuestion, options: { signal: AbortSignal }): Promise<ElicitResult>;
}

/** The MCP call whose work is running (its approver and ask port ask through it). */
const callInProgress = new AsyncLocalStorage<CallRounds<unknown>>();

/** Runs `work` as part of `call`, so what it asks the client's user goes out with that call's rounds. */
export function runAsPartOf<T>(call: CallRounds<unknown>, work: () => T): T {
  return callInProgress.run(call, work);
}

/** How the client's user is asked a form question: see {@link McpClientSession.elicit}. */
export type Elicit = (request: FormQuestion, signal: AbortSignal) => Promise<ElicitResult>;

/**
 * Asking on a 2026-07-28 connection: a question goes out with the next round of the call that asked
 * it, or, asked outside any call, of any call (it waits on `board` until one runs).
 */
export function elicitThroughRounds(board: QuestionBoard<CallRounds<unknown>>): Elicit {
  return (request, signal) => {
    // Work a call started can outlive it (a worker spawned by `vibe_spawn` asks later, still in
    // that call's async context): once the call has ended, its questions are outside any call.
    const call = callInProgress.getStore();
    return call !== undefined && !call.isEnded ? call.ask(request, signal) : board.ask(request, signal, undefined);
  };
}

/** What a client declared about itself: in `initialize` (2025 era) or in a request's envelope (2026-07-28). */
export interface DeclaredClient {
  clientInfo: { name: string; version: string } | undefined;
  capabilities: { elicitation?: { form?: object } & object } | undefined;
  protocolVersion: string | undefined;
}

/** The session of a client that declared `client`, asking its user with `elicit`. */
export function mcpClientSession(client: DeclaredClient, elicit: Elicit): McpClientSession {
  const elicitation = client.capabilities?.elicitation;
  return {
    clientInfo: client.clientInfo,
    protocolVersion: client.protocolVersion,
    // A bare `elicitation: {}` is the 2025-06-18 form of "form elicitation" (MCP 2025-11-25, Elicitation).
    supportsElicitation:
      elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0),
    elicit: (request, { signal }) => elicit(request, signal),
  };
}
