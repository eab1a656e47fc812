import { ToolError } from "@runbound/tool-kit";
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import type { LanguageServerSession } from "./language-server-session.js";

/** Whether the server offers a feature, statically in `initialize` or by a dynamic registration. */
export function hasCapability(
  session: LanguageServerSession,
  capability: keyof ServerCapabilities,
  method: string,
): boolean {
  const value = session.capabilities[capability];
  return (value !== undefined && value !== null && value !== false) || session.registered(method);
}

/**
 * Refuse a request the server said it does not support, instead of sending it and reporting "none".
 * `op` names the `lsp` op asked, when there is one.
 */
export function requireCapability(
  session: LanguageServerSession,
  capability: keyof ServerCapabilities,
  method: string,
  op?: string,
): void {
  if (hasCapability(session, capability, method)) return;
  const what = op === undefined ? `\`${method}\`` : `\`${op}\` (\`${method}\`)`;
  throw new ToolError({
    code: "unavailable",
    message: `Language server \`${session.spec.id}\` for \`${session.shownRoot}\` does not support ${what}: its capabilities have no \`${capability}\`. Use another op (\`lsp\` \`status\` lists the ops each running server lacks), or a text search.`,
  });
}
