import { readFileInWorkdir } from "@runbound/tool-kit";
import { extname, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import { readDiskStamp } from "./disk-stamp.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { syncWithDisk } from "./open-document.js";
import { requestDocumentSymbols } from "./request-document-symbols.js";
import { hasCapability } from "./require-capability.js";
import { maxDocumentBytes } from "./resync-from-disk.js";

/** A file's document symbols, to name the symbol each place in it lies in, and its text when it was read for them. */
export interface FileSymbols {
  text?: string;
  symbols: DocumentSymbol[] | SymbolInformation[];
}

/**
 * Document symbols per server and document version: a document's symbols follow from its text, and
 * every text the server is sent gets a new version, so a warm `references` asks again only for files
 * that changed.
 */
const cache = new WeakMap<LanguageServerSession, Map<string, { version: number; symbols: DocumentSymbol[] | SymbolInformation[] }>>();

/** The running server of the file's language whose root holds it most closely, or undefined. */
function serverFor(sessions: readonly LanguageServerSession[], path: string): LanguageServerSession | undefined {
  const extension = extname(path).toLowerCase();
  return sessions
    .filter((session) => session.spec.languages[extension] !== undefined && (path.startsWith(`${session.root}${sep}`) || session.root === sep))
    .sort((a, b) => b.root.length - a.root.length)[0];
}

/**
 * The document symbols of files inside the workdir, each from a running server of its language and
 * root (the file is opened there when it is not yet). A file no running server covers is left out
 * rather than starting one for a label; so is one whose server fails to answer.
 */
export async function lookUpFileSymbols(supervisor: LspSupervisorInstance, workdir: string, paths: readonly string[], signal: AbortSignal): Promise<Map<string, FileSymbols>> {
  const running = supervisor.running().filter((session) => hasCapability(session, "documentSymbolProvider", DocumentSymbolRequest.method));
  const wanted = paths.flatMap((path) => {
    const session = serverFor(running, path);
    return session === undefined ? [] : [{ path, session, uri: pathToFileURL(path).href }];
  });
  // The documents a server already has must match the disk before their versions say anything.
  for (const session of new Set(wanted.map((entry) => entry.session))) await syncWithDisk(session, workdir);
  const texts = new Map<string, string>();
  for (const { path, session, uri } of wanted) {
    if (session.documents.isOpen(uri)) continue;
    const stamp = await readDiskStamp(path);
    const bytes = await readFileInWorkdir(workdir, path, { maxBytes: maxDocumentBytes }).catch(() => null);
    if (bytes === null) continue;
    texts.set(path, bytes.toString("utf8"));
    session.documents.sync(path, texts.get(path)!, session.spec.languages[extname(path).toLowerCase()]!, stamp ?? undefined);
  }
  const found = await Promise.all(
    wanted.map(async ({ path, session, uri }): Promise<[string, FileSymbols] | undefined> => {
      const version = session.documents.version(uri);
      if (version === undefined) return undefined;
      let known = cache.get(session);
      if (known === undefined) cache.set(session, (known = new Map()));
      const cached = known.get(uri);
      const symbols = cached?.version === version ? cached.symbols : await requestDocumentSymbols(session, uri, signal).catch(() => undefined);
      if (symbols === undefined) return undefined;
      known.set(uri, { version, symbols });
      const text = texts.get(path);
      return [path, text === undefined ? { symbols } : { text, symbols }];
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
}
