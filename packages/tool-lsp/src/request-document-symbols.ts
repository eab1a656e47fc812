import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import type { LanguageServerSession } from "./language-server-session.js";

/** A document's symbols as the server gives them (nested or flat); [] for any other answer. */
export async function requestDocumentSymbols(
  session: LanguageServerSession,
  uri: string,
  signal: AbortSignal,
): Promise<DocumentSymbol[] | SymbolInformation[]> {
  const answer = await session.request(
    DocumentSymbolRequest.method,
    (connection, token) => connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }, token),
    signal,
  );
  return Array.isArray(answer) ? answer : [];
}
