import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  inputRequired,
  type CallToolResult,
  type ServerContext,
  type Transport,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { CallerInfo, ProgressUpdate, ToolResult } from "@runbound/tool-kit";
import type { Run } from "../create-run.js";
import { CallRounds } from "./call-rounds.js";
import { createElicitationApprover } from "./elicitation-approver.js";
import { exportOutputSchema } from "./export-output-schema.js";
import {
  elicitThroughRounds,
  mcpClientSession,
  runAsPartOf,
  type DeclaredClient,
  type Elicit,
  type McpClientSession,
} from "./mcp-client-session.js";
import { QuestionBoard } from "./question-board.js";
import { observeTransportClose } from "./observe-transport-close.js";
import { createProgressCounter } from "./progress-value.js";
import { toCallToolResult } from "./to-call-tool-result.js";
import { toMcpTool } from "./to-mcp-tool.js";

/** How long a call that asked the client's user waits for the answers, unless the host says otherwise. */
export const DEFAULT_ANSWER_TIMEOUT_MS = 30 * 60_000;

/** Settings of {@link serveRunOverMcp}. */
export interface McpServeSettings {
  /** Whose view of the run to serve; default the run's caller. */
  caller?: CallerInfo;
  /** The name and version the server gives itself; default `runbound-run` and 0.0.0. */
  serverInfo?: { name: string; version: string };
  /**
   * Whether clients of the 2025 protocol revisions (an `initialize` opening) are served (`serve`,
   * the default) or refused (`reject`). Clients of MCP 2026-07-28 are always served.
   */
  legacy?: "serve" | "reject";
  /**
   * The grace of the run's close when the connection ends (`graceMs` of {@link Run.close}); default
   * 5 000 ms. A host that exits with the connection passes a short one.
   */
  closeGraceMs?: number;
  /**
   * How long a call that asked the client's user (an approval, an `ask_user` card) waits for the
   * answers before it is cancelled; default {@link DEFAULT_ANSWER_TIMEOUT_MS} (30 minutes).
   */
  answerTimeoutMs?: number;
  /**
   * Whether "ask" approvals go to the client's user as a yes/no form when the client supports
   * elicitation; default true. A host that installs its own approver (e.g. one built on an ask port
   * in `onClientInitialized`) passes false.
   */
  elicitationApprovals?: boolean;
  /**
   * Called once the client is known — after `initialize` on a 2025-era connection, with its first
   * request on a 2026-07-28 one — with what it can do (elicitation), so the host can attach what
   * needs a human (an ask port) only when the client can reach one. The request waits for it; an
   * error it throws or rejects with goes to `onError`.
   */
  onClientInitialized?: (client: McpClientSession) => void | Promise<void>;
  /** Errors outside any request (a failing `onClientInitialized`, a transport error); default ignored. */
  onError?: (error: Error) => void;
}

/** A running serve: {@link serveRunOverMcp}'s handle. */
export interface McpServe {
  /** Settles when the connection has closed and the run's resources are disposed. */
  closed: Promise<void>;
  /** Ends the connection (and so the run). */
  close(): Promise<void>;
}

/**
 * Serve one run over an MCP connection (stdio, or any transport carrying one connection), both
 * protocol eras from one handler: MCP 2026-07-28 clients (a `server/discover` opening) and 2025-era
 * clients (an `initialize` opening). `tools/list` is the caller's visible set (with titles,
 * annotations from tier and hints, and output schemas where declared); `tools/call` goes through
 * the run's dispatch, with progress notices when the client asked for them; a changed tool set is
 * announced. Approvals and `ask_user` reach a 2026-07-28 client's user through "input required"
 * results (its multi-round-trip requests: see {@link CallRounds}) and a 2025-era client's through
 * `elicitation/create` requests. The run closes with the connection.
 */
export function serveRunOverMcp(transport: Transport, run: Run, settings: McpServeSettings = {}): McpServe {
  const caller = settings.caller ?? run.caller;
  const answerTimeoutMs = settings.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  const onError = settings.onError ?? (() => undefined);
  // Converted before serving: an output schema JSON Schema cannot express fails the serve, not every later tools/list.
  const outputSchemas = new Map(run.tools.map((tool) => [tool.name, exportOutputSchema(tool)]));
  const calls = new Map<string, { rounds: CallRounds<ToolResult>; tool: string; sendProgress: ProgressSink }>();
  const board = new QuestionBoard<CallRounds<unknown>>();
  let server: Server | undefined;
  // A 2025-era client is asked by request, which can be withdrawn on its side (an `ask_user` that
  // timed out); a 2026-07-28 one only in answer to a call (see CallRounds).
  const elicitFor = (client: DeclaredClient): Elicit =>
    isLegacyEra(client.protocolVersion)
      ? (question, signal) => {
          if (server === undefined) return Promise.reject(new Error("the MCP connection has not opened"));
          return server.elicitInput({ ...question, mode: "form" }, { signal, timeout: answerTimeoutMs });
        }
      : elicitThroughRounds(board);

  // What the host attaches for this client (an ask port, its approver) must be in place before the
  // client's first list or call is answered: a client may call the moment it is known.
  let clientReady: Promise<void> | undefined;
  const knowClient = (client: DeclaredClient): Promise<void> => {
    clientReady ??= (async () => {
      const session = mcpClientSession(client, elicitFor(client));
      if (session.supportsElicitation && settings.elicitationApprovals !== false)
        run.setApprover(createElicitationApprover(session));
      await settings.onClientInitialized?.(session);
    })().catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
    return clientReady;
  };
  const knowClientOf = (ctx: ServerContext): Promise<void> => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    // A 2025-era client is known from `initialize`; a request before its `initialized` waits for nothing.
    if (envelope === undefined || envelope[PROTOCOL_VERSION_META_KEY] === undefined)
      return clientReady ?? Promise.resolve();
    return knowClient({
      clientInfo: envelope[CLIENT_INFO_META_KEY] as DeclaredClient["clientInfo"],
      capabilities: envelope[CLIENT_CAPABILITIES_META_KEY] as DeclaredClient["capabilities"],
      protocolVersion: envelope[PROTOCOL_VERSION_META_KEY] as string,
    });
  };

  let unsubscribe = (): void => undefined;
  const buildServer = (): Server => {
    server = new Server(settings.serverInfo ?? { name: "runbound-run", version: "0.0.0" }, {
      capabilities: { tools: { listChanged: true } },
    });
    const pinned = server;
    server.onerror = onError;
    server.oninitialized = () =>
      void knowClient({
        clientInfo: pinned.getClientVersion(),
        capabilities: pinned.getClientCapabilities(),
        protocolVersion: pinned.getNegotiatedProtocolVersion(),
      });
    server.setRequestHandler("tools/list", async (_request, ctx) => {
      await knowClientOf(ctx);
      return { tools: run.visibleTools(caller).map((tool) => toMcpTool(tool, outputSchemas.get(tool.name))) };
    });
    server.setRequestHandler("tools/call", async (request, ctx) => {
      await knowClientOf(ctx);
      const call = callOfRound(
        request.params.name,
        request.params.arguments ?? {},
        request.params._meta?.progressToken,
        ctx,
      );
      const end = await call.rounds.nextRound(ctx.mcpReq.signal);
      // A notice sent just before the answer must reach the client before it: it drops later ones.
      await call.sendProgress.flush();
      if (end.kind === "questions") {
        const inputRequests = Object.fromEntries(
          [...end.questions].map(([key, question]) => [
            key,
            inputRequired.elicit({ message: question.message, requestedSchema: question.requestedSchema }),
          ]),
        );
        return inputRequired({ inputRequests, requestState: call.rounds.token });
      }
      const result: CallToolResult = toCallToolResult(
        run.tools.find((tool) => tool.name === call.tool),
        end.answer,
      );
      return pinned.projectCallToolResult(result, outputSchemas.get(call.tool));
    });
    unsubscribe();
    unsubscribe = run.onToolsChanged(() => void pinned.sendToolListChanged().catch(() => undefined));
    return pinned;
  };

  /** The call a `tools/call` round belongs to: a new one, or the one its `requestState` names. */
  const callOfRound = (
    tool: string,
    input: Record<string, unknown>,
    progressToken: string | number | undefined,
    ctx: ServerContext,
  ) => {
    const token = ctx.mcpReq.requestState();
    if (token === undefined) {
      const sendProgress = progressSink();
      // Before the work starts: a tool may report progress before its first await.
      sendProgress.to(progressToken, ctx);
      const rounds: CallRounds<ToolResult> = new CallRounds({
        board,
        answerTimeoutMs,
        onEnded: () => calls.delete(rounds.token),
      });
      const call = { rounds, tool, sendProgress };
      calls.set(rounds.token, call);
      runAsPartOf(rounds, () =>
        rounds.start((signal) => run.call(tool, input, { caller, signal, onProgress: sendProgress.send })),
      );
      return call;
    }
    const call = typeof token === "string" ? calls.get(token) : undefined;
    if (call === undefined || call.tool !== tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `This \`tools/call\` of \`${tool}\` carries a \`requestState\` that names no call of \`${tool}\` waiting for answers on this connection (it ended, was cancelled after ${Math.round(answerTimeoutMs / 1000)} s without answers, or was never started). Call the tool again without a \`requestState\`.`,
      );
    }
    // Two retries of one call at once (a client bug, or a replay): the second would wait for nothing.
    if (call.rounds.isRoundWaiting) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `This \`tools/call\` of \`${tool}\` retries a call whose earlier retry is still waiting for it; send one retry at a time, after the previous one was answered.`,
      );
    }
    call.sendProgress.to(progressToken, ctx);
    call.rounds.takeAnswers(ctx.mcpReq.inputResponses);
    return call;
  };

  const connection = observeTransportClose(transport);
  const handle = serveStdio(buildServer, { transport, legacy: settings.legacy ?? "serve", onerror: onError });
  const closed = connection.closed.then(async () => {
    unsubscribe();
    for (const { rounds } of [...calls.values()]) rounds.cancel(new Error("the MCP connection closed"));
    await run.close(settings.closeGraceMs === undefined ? {} : { graceMs: settings.closeGraceMs });
  });
  return { closed, close: () => handle.close() };
}

/** True for the protocol revisions before MCP 2026-07-28, which have requests from server to client. */
function isLegacyEra(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && protocolVersion < "2026-07-28";
}

/** Where a call's progress goes: the round running now, under its own progress token. */
interface ProgressSink {
  send: (update: ProgressUpdate) => void;
  to: (progressToken: string | number | undefined, ctx: ServerContext) => void;
  /** Settles once every notice sent so far is on the wire. */
  flush: () => Promise<void>;
}

function progressSink(): ProgressSink {
  let target: ((update: ProgressUpdate) => void) | undefined;
  let counter: { token: string | number; value: ReturnType<typeof createProgressCounter> } | undefined;
  let sending: Promise<unknown> = Promise.resolve();
  return {
    send: (update) => target?.(update),
    flush: () => sending.then(() => undefined),
    to(progressToken, ctx) {
      if (progressToken === undefined) return void (target = undefined);
      // Values must increase along a token: a 2026-07-28 retry brings a token of its own, while a
      // 2025-era call keeps its one token across the rounds the SDK runs for it.
      if (counter?.token !== progressToken) counter = { token: progressToken, value: createProgressCounter() };
      const progressValue = counter.value;
      target = (update) => {
        const params = {
          progressToken,
          progress: progressValue(update.progress, update.total),
          message: update.message,
          ...(update.total === undefined ? {} : { total: update.total }),
        };
        const sent = ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(() => undefined);
        sending = Promise.all([sending, sent]);
      };
    },
  };
}
