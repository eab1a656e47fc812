import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/** What the connected MCP client can do for the host, handed over once it has initialized. */
export interface McpClientSession {
  /** The client's name and version, as it declared them. */
  clientInfo: { name: string; version: string } | undefined;
  /** True when the client declared form elicitation: its user can be asked. */
  supportsElicitation: boolean;
  /**
   * Ask the client's user with a form (`elicitation/create`). Bounded only by `signal`, whose abort
   * cancels the request: the SDK's 60-second default request timeout would otherwise end a question
   * the user is still reading.
   */
  elicit(
    request: Omit<ElicitRequestFormParams, "mode"> & { mode?: "form" },
    options: { signal: AbortSignal },
  ): Promise<ElicitResult>;
}

// The SDK arms a timer for every request; the longest Node accepts stands for "none" (about 24.8 days).
const noRequestTimeoutMs = 2 ** 31 - 1;

/** {@link McpClientSession.elicit} over `server`. */
export function formElicitation(server: Pick<Server, "elicitInput">): McpClientSession["elicit"] {
  return (request, { signal }) =>
    server.elicitInput({ ...request, mode: "form" }, { signal, timeout: noRequestTimeoutMs });
}

/** The session of the client connected to `server` (call it once the client has initialized). */
export function mcpClientSession(server: Server): McpClientSession {
  return {
    clientInfo: server.getClientVersion(),
    supportsElicitation: server.getClientCapabilities()?.elicitation?.form !== undefined,
    elicit: formElicitation(server),
  };
}
