import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallerInfo, ProgressUpdate } from "@runbound/tool-kit";
import type { Run } from "../create-run.js";
import { createElicitationApprover } from "./elicitation-approver.js";
import { exportOutputSchema } from "./export-output-schema.js";
import { mcpClientSession, type McpClientSession } from "./mcp-client-session.js";
import { createProgressCounter } from "./progress-value.js";
import { toCallToolResult } from "./to-call-tool-result.js";
import { toMcpTool } from "./to-mcp-tool.js";

/** Settings of {@link serveRunOverMcp}. */
export interface McpServeSettings {
  /** Whose view of the run to serve; default the run's caller. */
  caller?: CallerInfo;
  /**
   * The grace of the run's close when the connection ends (`graceMs` of {@link Run.close}); default
   * 5 000 ms. A host that exits with the connection passes a short one.
   */
  closeGraceMs?: number;
  /**
   * Whether "ask" approvals go to the client's user as a yes/no elicitation when the client supports
   * it; default true. A host that installs its own approver (e.g. one built on an ask port in
   * `onClientInitialized`) passes false.
   */
  elicitationApprovals?: boolean;
  /**
   * Called once the client has initialized, with what it can do (elicitation), so the host can
   * attach what needs a human (an ask port) only when the client can reach one. An error it throws
   * or rejects with goes to `server.onerror`.
   */
  onClientInitialized?: (client: McpClientSession) => void | Promise<void>;
}

/**
 * Serve one run over an MCP server (one run per connection): `tools/list` is the caller's visible
 * set (with titles, annotations from tier and hints, and output schemas where declared), `tools/call`
 * goes through the run's dispatch (with progress notices when the client asked for them) and answers
 * as {@link toCallToolResult} says, a changed tool set is announced, approvals are asked through elicitation when the client
 * supports it, and the run closes with the connection.
 *
 * @returns a promise that settles when the connection has closed and the run's resources are disposed.
 */
export async function serveRunOverMcp(
  server: Server,
  transport: Transport,
  run: Run,
  settings: McpServeSettings = {},
): Promise<{ closed: Promise<void> }> {
  const caller = settings.caller ?? run.caller;
  // Converted before connecting: an output schema JSON Schema cannot express fails the serve, not every later tools/list.
  const outputSchemas = new Map(run.tools.map((tool) => [tool.name, exportOutputSchema(tool)]));
  // What the host attaches for this client (an ask port, its approver) must be in place before the
  // client's first list or call is answered: a client may call the moment it has said `initialized`.
  let clientReady: Promise<void> = Promise.resolve();
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await clientReady;
    return { tools: run.visibleTools(caller).map((tool) => toMcpTool(tool, outputSchemas.get(tool.name))) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await clientReady;
    const progressToken = request.params._meta?.progressToken;
    const progressValue = createProgressCounter();
    const onProgress = (update: ProgressUpdate): void => {
      const params = {
        progressToken: progressToken!,
        progress: progressValue(update.progress, update.total),
        message: update.message,
        ...(update.total === undefined ? {} : { total: update.total }),
      };
      extra.sendNotification({ method: "notifications/progress", params }).catch(() => undefined);
    };
    const result = await run.call(request.params.name, request.params.arguments ?? {}, {
      caller,
      signal: extra.signal,
      ...(progressToken === undefined ? {} : { onProgress }),
    });
    return toCallToolResult(
      run.tools.find((tool) => tool.name === request.params.name),
      result,
    );
  });
  server.oninitialized = () => {
    const client = mcpClientSession(server);
    if (client.supportsElicitation && settings.elicitationApprovals !== false)
      run.setApprover(createElicitationApprover(server));
    const initialized = settings.onClientInitialized;
    if (initialized !== undefined) {
      clientReady = Promise.resolve()
        .then(() => initialized(client))
        .catch((error: unknown) => server.onerror?.(error instanceof Error ? error : new Error(String(error))));
    }
  };
  const unsubscribe = run.onToolsChanged(() => {
    server.sendToolListChanged().catch(() => undefined);
  });
  let markClosed!: () => void;
  const connectionClosed = new Promise<void>((resolve) => (markClosed = resolve));
  server.onclose = () => markClosed();
  await server.connect(transport);
  const closed = connectionClosed.then(async () => {
    unsubscribe();
    await run.close(settings.closeGraceMs === undefined ? {} : { graceMs: settings.closeGraceMs });
  });
  return { closed };
}
