import { readFileInWorkdir } from "@runbound/runtime-kit";
import { extname, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { DocumentSymbolRequest, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import { readDiskStamp, sameStamp, type DiskStamp } from "./disk-stamp.js";
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

/** What a server answered for a file's document symbols, and for which text. */
interface KnownSymbols {
  /** The version of the text the server had open when it answered. */
  version: number;
  /** The file on disk when it was opened only to be asked, then closed again. */
  stamp?: DiskStamp;
  text: string;
  symbols: DocumentSymbol[] | SymbolInformation[];
}

/** What one server's symbols are known for, and how much text that keeps. */
interface KnownFiles {
  entries: Map<string, KnownSymbols>;
  textLength: number;
}

/**
 * Document symbols per server and file: a document's symbols follow from its text, so a warm
 * `references` asks again only for files that changed — an open one at a new version, one opened
 * only for the lookup when its disk stamp moved. Bounded per server by {@link maxKnownFiles} files
 * and {@link maxKnownTextLength} UTF-16 units of text, the least recently used dropped first.
 */
const cache = new WeakMap<LanguageServerSession, KnownFiles>();
const maxKnownFiles = 1_000;
const maxKnownTextLength = 32 * 1024 * 1024;

function knownOf(session: LanguageServerSession): KnownFiles {
  let known = cache.get(session);
  if (known === undefined) cache.set(session, (known = { entries: new Map(), textLength: 0 }));
  return known;
}

function forget(known: KnownFiles, uri: string): void {
  const entry = known.entries.get(uri);
  if (entry === undefined) return;
  known.entries.delete(uri);
  known.textLength -= entry.text.length;
}

function remember(known: KnownFiles, uri: string, entry: KnownSymbols): void {
  forget(known, uri);
  known.entries.set(uri, entry);
  known.textLength += entry.text.length;
  while (known.entries.size > maxKnownFiles || (known.textLength > maxKnownTextLength && known.entries.size > 1))
    forget(known, known.entries.keys().next().value!);
}

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
 * root. A file the server does not have open is opened for the question and closed after it:
 * typescript-language-server re-checks every open document after each change and each interrupted
 * check (50 files opened by one `references` made later hovers wait 80–200 ms behind that work), and
 * pyright checks open files eagerly. A file no running server covers is left out rather than starting
 * one for a label; so is one whose server fails to answer.
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
  const found: Array<[string, FileSymbols]> = [];
  const toAsk: Array<{ path: string; session: LanguageServerSession; uri: string; stamp?: DiskStamp }> = [];
  const borrowed: Array<{ session: LanguageServerSession; uri: string }> = [];
  try {
    for (const { path, session, uri } of wanted) {
      if (session.documents.isKeptOpen(uri)) {
        toAsk.push({ path, session, uri });
        continue;
      }
      const stamp = await readDiskStamp(path);
      if (stamp === null) continue;
      const known = knownOf(session);
      const cached = known.entries.get(uri);
      if (cached !== undefined && sameStamp(cached.stamp, stamp)) {
        remember(known, uri, cached);
        found.push([path, { text: cached.text, symbols: cached.symbols }]);
        continue;
      }
      const bytes = await readFileInWorkdir(workdir, path, { maxBytes: maxDocumentBytes }).catch(() => null);
      if (bytes === null || session.exit !== undefined) continue;
      const languageId = session.spec.languages[extname(path).toLowerCase()]!;
      if (!session.documents.borrow(path, bytes.toString("utf8"), languageId, stamp)) {
        // A call opened it for good meanwhile: ask it as an open document.
        toAsk.push({ path, session, uri });
        continue;
      }
      borrowed.push({ session, uri });
      toAsk.push({ path, session, uri, stamp });
    }
    // A few at a time: each request listens on the call's signal, and a page may span 50 files.
    for (let start = 0; start < toAsk.length; start += 8) {
      const batch = await Promise.all(
        toAsk
          .slice(start, start + 8)
          .map((entry) => symbolsOf(entry.session, entry.path, entry.uri, entry.stamp, signal)),
      );
      for (const entry of batch) if (entry !== undefined) found.push(entry);
    }
  } finally {
    for (const { session, uri } of borrowed) if (session.exit === undefined) session.documents.release(uri);
  }
  return new Map(found);
}

/** A document's symbols at the version the server has, from the cache when that version was asked already. */
async function symbolsOf(
  session: LanguageServerSession,
  path: string,
  uri: string,
  stamp: DiskStamp | undefined,
  signal: AbortSignal,
): Promise<[string, FileSymbols] | undefined> {
  const held = session.documents.current(uri);
  if (held === undefined) return undefined;
  const known = knownOf(session);
  const cached = known.entries.get(uri);
  const symbols =
    stamp === undefined && cached?.stamp === undefined && cached?.version === held.version
      ? cached.symbols
      : await requestDocumentSymbols(session, uri, signal).catch(() => undefined);
  if (symbols === undefined) return undefined;
  remember(known, uri, { version: held.version, ...(stamp === undefined ? {} : { stamp }), text: held.text, symbols });
  return [path, { text: held.text, symbols }];
}
