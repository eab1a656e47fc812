import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import {
  CancellationTokenSource,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { callerApprovalRequest, type CallerApprovalResult } from "./caller-approval-protocol.js";
import { WORKER_ENVIRONMENT } from "./worker-environment.js";

/** The worker's side of the approval channel to the caller that started it. */
export interface CallerApprovals {
  /** Ask the caller about one call; never throws: a lost channel or a withdrawn question is a denial that says so. */
  approve(tool: string, input: unknown, signal: AbortSignal): Promise<CallerApprovalResult>;
  /** Close the channel. */
  dispose(): void;
}

// The caller's own approval budget (five minutes by default, an operator's card ten) ends its side
// first; this bound only keeps a worker from waiting forever on a caller that stopped answering.
const longestWaitMs = 15 * 60_000;

function refuse(value: string, problem: string): never {
  throw new TypeError(
    `The environment variable ${WORKER_ENVIRONMENT.approvals} is \`${value}\`: ${problem}. It is set by the roster that starts this program as a worker; unset it when starting it yourself.`,
  );
}

function openChannel(value: string): Socket {
  if (!/^\d+$/.test(value) || Number(value) < 3) refuse(value, "it must be a file descriptor number of 3 or more");
  const fd = Number(value);
  let isSocket: boolean;
  try {
    isSocket = fstatSync(fd).isSocket();
  } catch {
    refuse(value, "no such file descriptor is open");
  }
  if (!isSocket) refuse(value, "that file descriptor is not a socket");
  const socket = new Socket({ fd, readable: true, writable: true });
  // An idle channel must not keep a worker alive whose work is done; a pending question refs it.
  socket.unref();
  return socket;
}

/**
 * The channel named by `RUNBOUND_APPROVAL_FD`, or undefined when it is unset (no caller to ask: a
 * worker then denies what its caller asks about).
 *
 * @throws TypeError naming the value when it is set but names no usable channel.
 */
export function connectCallerApprovals(environment: NodeJS.ProcessEnv = process.env): CallerApprovals | undefined {
  const value = environment[WORKER_ENVIRONMENT.approvals];
  if (value === undefined) return undefined;
  const socket = openChannel(value.trim());
  const connection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
  let lost: string | undefined;
  const loseWith = (why: string): void => {
    lost ??= why;
  };
  connection.onClose(() => loseWith("the caller closed the approval channel"));
  connection.onError(([error]) => loseWith(`the approval channel failed (${error.message})`));
  connection.listen();
  let pending = 0;
  return {
    async approve(tool, input, signal) {
      if (lost !== undefined)
        return {
          approved: false,
          message: `Calling \`${tool}\` needs the caller's approval, and ${lost}, so it was denied.`,
        };
      const cancel = new CancellationTokenSource();
      const bounded = AbortSignal.any([signal, AbortSignal.timeout(longestWaitMs)]);
      const onAbort = (): void => cancel.cancel();
      bounded.addEventListener("abort", onAbort, { once: true });
      if (pending++ === 0) socket.ref();
      try {
        const asked = connection.sendRequest(callerApprovalRequest, { tool, input }, cancel.token);
        const withdrawn = new Promise<never>((_resolve, reject) =>
          bounded.addEventListener("abort", () => reject(bounded.reason), { once: true }),
        );
        return await Promise.race([asked, withdrawn]);
      } catch (error) {
        const why =
          bounded.aborted && !signal.aborted
            ? `no answer came within ${longestWaitMs / 60_000} minutes`
            : signal.aborted
              ? "the call was cancelled"
              : (lost ?? `the approval channel failed (${error instanceof Error ? error.message : String(error)})`);
        return {
          approved: false,
          message: `Calling \`${tool}\` needs the caller's approval, and ${why}, so it was denied.`,
        };
      } finally {
        if (--pending === 0) socket.unref();
        bounded.removeEventListener("abort", onAbort);
        cancel.dispose();
      }
    },
    dispose() {
      connection.dispose();
      socket.destroy();
    },
  };
}
