import { ToolError } from "@runbound/tool-kit";
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import type { LanguageServerSession } from "./language-server-session.js";

/** Whether the server offers a feature, statically in `initialize` or by a dynamic registration. */
export function hasCapability(session: LanguageServerSession, capability: keyof ServerCapabilities, method: string): boolean {
  const value = session.capabilities[capability];
  return (value !== undefined && value !== null && value !== false) || session.registered(method);
}

/** Refuse a request the server said it does not support, instead of sending it and reporting "none". */
export function requireCapability(session: LanguageServerSession, capability: keyof ServerCapabilities, method: string): void {
  if (hasCapability(session, capability, method)) return;
  throw new ToolError({
    code: "unavailable",
    message: `Language server \`${session.spec.id}\` does not support \`${method}\` (its capabilities have no \`${capability}\`). Use another op, or a text search.`,
  });
}
