import { readFileInWorkdir } from "@runbound/runtime-kit";
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
const cache = new WeakMap<
  LanguageServerSession,
  Map<string, { version: number; symbols: DocumentSymbol[] | SymbolInformation[] }>
>();

/** The running server of the file's language whose root holds it most closely, or undefined. */
function serverFor(sessions: readonly LanguageServerSession[], path: string): LanguageServerSession | undefined {
  const extension = extname(path).toLowerCase();
  return sessions
    .filter(
      (session) =>
        session.spec.languages[extension] !== undefined &&
        (path.startsWith(`${session.root}${sep}`) || session.root === sep),
    )
    .sort((a, b) => b.root.length - a.root.length)[0];
}

/**
 * The document symbols of files inside the workdir, each from a running server of its language and
 * root (the file is opened there when it is not yet). A file no running server covers is left out
 * rather than starting one for a label; so is one whose server fails to answer.
 */
export async function lookUpFileSymbols(
  supervisor: LspSupervisorInstance,
  workdir: string,
  paths: readonly string[],
  signal: AbortSignal,
  synced?: LanguageServerSession,
): Promise<Map<string, FileSymbols>> {
  const running = supervisor
    .running()
    .filter((session) => hasCapability(session, "documentSymbolProvider", DocumentSymbolRequest.method));
  const wanted = paths.flatMap((path) => {
    const session = serverFor(running, path);
    return session === undefined ? [] : [{ path, session, uri: pathToFileURL(path).href }];
  });
  // The documents a server already has must match the disk before their versions say anything
  // (`synced` was brought in step by this call already).
  for (const session of new Set(wanted.map((entry) => entry.session)))
    if (session !== synced) await syncWithDisk(session, workdir);
  for (const { path, session, uri } of wanted) {
    if (session.documents.isOpen(uri)) continue;
    const stamp = await readDiskStamp(path);
    const bytes = await readFileInWorkdir(workdir, path, { maxBytes: maxDocumentBytes }).catch(() => null);
    if (bytes !== null)
      session.documents.sync(
        path,
        bytes.toString("utf8"),
        session.spec.languages[extname(path).toLowerCase()]!,
        stamp ?? undefined,
      );
  }
  const found: Array<[string, FileSymbols]> = [];
  // A few at a time: each request listens on the call's signal, and a page may span 50 files.
  for (let start = 0; start < wanted.length; start += 8) {
    const batch = await Promise.all(
      wanted.slice(start, start + 8).map((entry) => symbolsOf(entry.session, entry.path, entry.uri, signal)),
    );
    for (const entry of batch) if (entry !== undefined) found.push(entry);
  }
  return new Map(found);
}

/** A document's symbols at the version the server has, from the cache when that version was asked already. */
async function symbolsOf(
  session: LanguageServerSession,
  path: string,
  uri: string,
  signal: AbortSignal,
): Promise<[string, FileSymbols] | undefined> {
  const held = session.documents.current(uri);
  if (held === undefined) return undefined;
  let known = cache.get(session);
  if (known === undefined) cache.set(session, (known = new Map()));
  const cached = known.get(uri);
  const symbols =
    cached?.version === held.version
      ? cached.symbols
      : await requestDocumentSymbols(session, uri, signal).catch(() => undefined);
  if (symbols === undefined) return undefined;
  known.set(uri, { version: held.version, symbols });
  return [path, { text: held.text, symbols }];
}
