import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { openDocument } from "./open-document.js";
import { requestDocumentSymbols } from "./request-document-symbols.js";
import { hasCapability } from "./require-capability.js";

/** A file's text and document symbols, to name the symbol each place in it lies in. */
export interface FileSymbols {
  text: string;
  symbols: DocumentSymbol[] | SymbolInformation[];
}

/**
 * The document symbols of files inside the workdir, each from the running server of its project
 * (opened there as a document). A file whose server is not running is left out rather than starting
 * one for a label; so is one whose server fails to answer.
 */
export async function lookUpFileSymbols(supervisor: LspSupervisorInstance, workdir: string, paths: readonly string[], signal: AbortSignal): Promise<Map<string, FileSymbols>> {
  const running = supervisor.running();
  const opened = [];
  // One at a time: opening re-syncs the server's other documents with the disk, which must not interleave.
  for (const path of paths) {
    const route = await supervisor.route(workdir, path).catch(() => undefined);
    if (route?.kind !== "ready" || !running.some((session) => session.spec.id === route.spec.id && session.root === route.root)) continue;
    const document = await openDocument(supervisor, workdir, path, signal).catch(() => undefined);
    if (document !== undefined) opened.push(document);
  }
  const found = await Promise.all(
    opened.filter((document) => hasCapability(document.session, "documentSymbolProvider", DocumentSymbolRequest.method)).map(async (document): Promise<[string, FileSymbols] | undefined> => {
      const symbols = await requestDocumentSymbols(document.session, document.uri, signal).catch(() => undefined);
      return symbols === undefined ? undefined : [document.path, { text: document.text, symbols }];
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
}
