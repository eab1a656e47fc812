import { ToolError } from "@runbound/tool-kit";
import {
  DocumentSymbolRequest,
  WorkspaceSymbolRequest,
  type SymbolInformation,
  type WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import type { DependencyFiles } from "./dependency-files.js";
import { locationRow, showLocations } from "./format-locations.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { OpenDocument } from "./open-document.js";
import type { OpAnswer } from "./op-types.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";
import { DEFAULT_OUTLINE_DEPTH, documentOutline, type OutlineOptions } from "./document-outline.js";
import { splitLines } from "./position-from-symbol.js";
import { requestDocumentSymbols } from "./request-document-symbols.js";
import { requireCapability } from "./require-capability.js";
import { declaredKindName } from "./symbol-kind-name.js";

/** The most workspace symbols and document symbols listed (DESIGN §4 lsp). */
export const WORKSPACE_SYMBOLS_CAP = 100;
export const DOCUMENT_SYMBOLS_CAP = 200;
const maxRowsBytes = 14 * 1024;

/** Answer `symbols` for one file: its outline, top to bottom, to the depth and of the kinds asked. */
export async function documentSymbolsOp(
  document: OpenDocument,
  options: OutlineOptions,
  signal: AbortSignal,
): Promise<OpAnswer> {
  const session = document.session;
  requireCapability(session, "documentSymbolProvider", DocumentSymbolRequest.method, "symbols");
  const items = await requestDocumentSymbols(session, document.uri, signal);
  const { rows, deeper } = documentOutline(items, splitLines(document.text), session.spec.id, options);
  const kinds =
    options.kinds === undefined || options.kinds.length === 0
      ? ""
      : `${options.kinds.map((kind) => `\`${kind}\``).join(" or ")} `;
  const left =
    deeper === 0
      ? ""
      : ` (${deeper} deeper ${deeper === 1 ? "one" : "ones"} not shown${options.depth === undefined ? ": members' members, parameters and locals" : ""}; pass \`depth\` ${(options.depth ?? DEFAULT_OUTLINE_DEPTH) + 1} to see them)`;
  if (rows.length === 0)
    return {
      text: emptyAnswer(session, `No ${kinds}symbols in ${document.shown}${left}`),
      structured: { op: "symbols", total: 0, deeper, symbols: [] },
    };
  const noun = [`${kinds}symbol`, `${kinds}symbols`] as const;
  const bounded = boundedRows({
    rows,
    total: rows.length,
    cap: DOCUMENT_SYMBOLS_CAP,
    maxBytes: maxRowsBytes,
    noun,
    narrow: 'pass `kinds` (e.g. ["class","function"]) or a smaller `depth`, or search by name with `query`',
  });
  const header = bounded.header.replace(/\.$/, "");
  return {
    text: `${partialNote(session)}${header} in ${document.shown}${left}:\n${bounded.shown.join("\n")}`,
    structured: { op: "symbols", total: rows.length, deeper, symbols: bounded.shown },
  };
}

/** Answer `symbols` with a `query`: a workspace-wide search by name on each given server. */
export async function workspaceSymbolsOp(
  sessions: readonly LanguageServerSession[],
  query: string,
  workdir: string,
  dependencies: DependencyFiles,
  signal: AbortSignal,
): Promise<OpAnswer> {
  if (sessions.length === 0) {
    throw new ToolError({
      code: "unavailable",
      message: `No language server is running to search for \`${query}\`. Pass \`file\` (any source file of the project) so the right server starts.`,
    });
  }
  const found: Array<{ kind: number; server: string; name: string; container?: string; uri: string; line: number }> =
    [];
  for (const session of sessions) {
    requireCapability(session, "workspaceSymbolProvider", WorkspaceSymbolRequest.method);
    const answer = await session.request(
      WorkspaceSymbolRequest.method,
      (connection, token) => connection.sendRequest(WorkspaceSymbolRequest.type, { query }, token),
      signal,
    );
    for (const item of (Array.isArray(answer) ? answer : []) as Array<SymbolInformation | WorkspaceSymbol>) {
      const uri = item?.location?.uri;
      if (typeof item?.name !== "string" || typeof uri !== "string") continue;
      const line = "range" in item.location ? item.location.range.start.line : 0;
      found.push({
        kind: item.kind,
        server: session.spec.id,
        name: item.name,
        ...(item.containerName ? { container: item.containerName } : {}),
        uri,
        line,
      });
    }
  }
  const notes = sessions.map(partialNote).join("");
  if (found.length === 0)
    return {
      text: notes + emptyAnswer(sessions[0]!, `No symbols matching \`${query}\``),
      structured: { op: "symbols", total: 0, symbols: [] },
    };
  const places = await showLocations(workdir, found.slice(0, WORKSPACE_SYMBOLS_CAP), { dedupe: false, dependencies });
  const rows = found
    .slice(0, places.length)
    .map(
      (symbol, index) =>
        `${declaredKindName(symbol.kind, places[index]!.source, symbol.name, symbol.server)} ${symbol.name}${symbol.container === undefined ? "" : ` (in ${symbol.container})`} — ${locationRow(places[index]!)}`,
    );
  const bounded = boundedRows({
    rows,
    total: found.length,
    cap: WORKSPACE_SYMBOLS_CAP,
    maxBytes: maxRowsBytes,
    noun: ["symbol", "symbols"],
    narrow: "give a longer `query`",
  });
  return {
    text: `${notes}${bounded.header.replace(/\.$/, "")} matching \`${query}\`:\n${bounded.shown.join("\n")}`,
    structured: { op: "symbols", total: found.length, symbols: bounded.shown },
  };
}
