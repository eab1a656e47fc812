import { ToolError } from "@runbound/tool-kit";
import { DocumentSymbolRequest, WorkspaceSymbolRequest, type DocumentSymbol, type SymbolInformation, type WorkspaceSymbol } from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import { locationRow, showLocations } from "./format-locations.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { OpenDocument } from "./open-document.js";
import type { OpAnswer } from "./op-types.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";
import { requireCapability } from "./require-capability.js";
import { symbolKindName } from "./symbol-kind-name.js";

/** The most workspace symbols and document symbols listed (DESIGN §4 lsp). */
export const WORKSPACE_SYMBOLS_CAP = 100;
export const DOCUMENT_SYMBOLS_CAP = 200;
const maxRowsBytes = 14 * 1024;

const startLine = (symbol: DocumentSymbol): number => symbol.selectionRange?.start?.line ?? symbol.range?.start?.line ?? 0;

function flatten(symbols: readonly DocumentSymbol[], depth: number, rows: string[]): void {
  // Servers answer in their own order (typescript-language-server: by name); an outline reads top to bottom.
  for (const symbol of [...symbols].sort((a, b) => startLine(a) - startLine(b))) {
    if (typeof symbol?.name !== "string") continue;
    const line = typeof symbol.selectionRange?.start?.line === "number" ? symbol.selectionRange.start.line + 1 : typeof symbol.range?.start?.line === "number" ? symbol.range.start.line + 1 : "?";
    rows.push(`${"  ".repeat(depth)}${symbolKindName(symbol.kind)} ${symbol.name}${symbol.detail ? ` ${symbol.detail}` : ""} — line ${line}`);
    if (Array.isArray(symbol.children)) flatten(symbol.children, depth + 1, rows);
  }
}

/** Answer `symbols` for one file: its outline, nested, with line numbers. */
export async function documentSymbolsOp(document: OpenDocument, signal: AbortSignal): Promise<OpAnswer> {
  const session = document.session;
  requireCapability(session, "documentSymbolProvider", DocumentSymbolRequest.method);
  const answer = await session.request(DocumentSymbolRequest.method, (connection, token) => connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: document.uri } }, token), signal);
  const items = Array.isArray(answer) ? answer : [];
  const rows: string[] = [];
  if (items.length > 0 && "location" in (items[0] as object)) {
    for (const item of items as SymbolInformation[]) rows.push(`${symbolKindName(item.kind)} ${item.name}${item.containerName ? ` (in ${item.containerName})` : ""} — line ${(item.location?.range?.start?.line ?? -1) + 1}`);
  } else {
    flatten(items as DocumentSymbol[], 0, rows);
  }
  if (rows.length === 0) return { text: emptyAnswer(session, `No symbols in ${document.shown}`), structured: { op: "symbols", total: 0, symbols: [] } };
  const bounded = boundedRows({ rows, total: rows.length, cap: DOCUMENT_SYMBOLS_CAP, maxBytes: maxRowsBytes, noun: ["symbol", "symbols"], narrow: "search by name with `query` to find one" });
  return { text: `${partialNote(session)}${bounded.header.replace(/\.$/, "")} in ${document.shown}:\n${bounded.shown.join("\n")}`, structured: { op: "symbols", total: rows.length, symbols: bounded.shown } };
}

/** Answer `symbols` with a `query`: a workspace-wide search by name on each given server. */
export async function workspaceSymbolsOp(sessions: readonly LanguageServerSession[], query: string, workdir: string, signal: AbortSignal): Promise<OpAnswer> {
  if (sessions.length === 0) {
    throw new ToolError({ code: "unavailable", message: `No language server is running to search for \`${query}\`. Pass \`file\` (any source file of the project) so the right server starts.` });
  }
  const found: Array<{ kind: string; name: string; container?: string; uri: string; line: number }> = [];
  for (const session of sessions) {
    requireCapability(session, "workspaceSymbolProvider", WorkspaceSymbolRequest.method);
    const answer = await session.request(WorkspaceSymbolRequest.method, (connection, token) => connection.sendRequest(WorkspaceSymbolRequest.type, { query }, token), signal);
    for (const item of (Array.isArray(answer) ? answer : []) as Array<SymbolInformation | WorkspaceSymbol>) {
      const uri = item?.location?.uri;
      if (typeof item?.name !== "string" || typeof uri !== "string") continue;
      const line = "range" in item.location ? item.location.range.start.line : 0;
      found.push({ kind: symbolKindName(item.kind), name: item.name, ...(item.containerName ? { container: item.containerName } : {}), uri, line });
    }
  }
  const notes = sessions.map(partialNote).join("");
  if (found.length === 0) return { text: notes + emptyAnswer(sessions[0]!, `No symbols matching \`${query}\``), structured: { op: "symbols", total: 0, symbols: [] } };
  const places = await showLocations(workdir, found.slice(0, WORKSPACE_SYMBOLS_CAP), { dedupe: false });
  const rows = found.slice(0, places.length).map((symbol, index) => `${symbol.kind} ${symbol.name}${symbol.container === undefined ? "" : ` (in ${symbol.container})`} — ${locationRow(places[index]!)}`);
  const bounded = boundedRows({ rows, total: found.length, cap: WORKSPACE_SYMBOLS_CAP, maxBytes: maxRowsBytes, noun: ["symbol", "symbols"], narrow: "give a longer `query`" });
  return { text: `${notes}${bounded.header.replace(/\.$/, "")} matching \`${query}\`:\n${bounded.shown.join("\n")}`, structured: { op: "symbols", total: found.length, symbols: bounded.shown } };
}
