import type { CancellationToken } from "vscode-jsonrpc";
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";

/** Sends one typed request on the connection; the session's `request` bounds and guards it. */
export type SendRequest<R> = (connection: ProtocolConnection, token: CancellationToken) => Promise<R>;

/**
 * What a server's own hooks (`pullDiagnostics`, `importersOf`) may use of a running session: its
 * capabilities and the bounded, cancellable request path. `LanguageServerSession` is one; the spec
 * names this narrow shape so it does not depend on the session (which depends on the spec).
 */
export interface SessionRequests {
  /** The directory the server was started for (its workspace folder). */
  readonly root: string;
  /** The capabilities from `initialize`. */
  readonly capabilities: ServerCapabilities;
  /** Send a request, bounded by `signal`. */
  request<R>(method: string, send: SendRequest<R>, signal: AbortSignal): Promise<R>;
}
