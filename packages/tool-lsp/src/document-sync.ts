import { pathToFileURL } from "node:url";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";
import {
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  type FileEvent,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import type { DiskStamp } from "./disk-stamp.js";

/** One document a server has open, as {@link DocumentSync.openDocuments} lists it. */
export interface OpenEntry {
  uri: string;
  /** Absolute path of its file. */
  path: string;
  languageId: string;
  /** The file's stamp when the text the server has was read from it; undefined when the text did not come from disk. */
  stamp: DiskStamp | undefined;
}

/** Where a document stands with the server after a sync. */
export interface SyncedDocument {
  uri: string;
  /** The version the server now has. */
  version: number;
  /** Whether this sync sent the text (didOpen or didChange). */
  changed: boolean;
}

/** File changes remembered for {@link DocumentSync.changedSince}; more since a mark means "too many". */
const maxRecentChanges = 256;

type Notify = (send: (connection: ProtocolConnection) => Promise<void>) => void;

/**
 * The documents one server has open, and the notifications that keep its view equal to the files:
 * didOpen/didChange (full text, a new version each time), didSave when the server asked for it,
 * didClose, and didChangeWatchedFiles for files it watches but does not have open.
 */
export class DocumentSync {
  private readonly open = new Map<
    string,
    { version: number; text: string; path: string; languageId: string; stamp: DiskStamp | undefined }
  >();
  /**
   * Documents open only for the questions of calls in flight (to name enclosing symbols, to have
   * pyright check an importer first), with how many such questions hold each: the last to finish
   * closes it, unless a call made it one the run keeps open ({@link keepOpen}).
   */
  private readonly borrowed = new Map<string, number>();
  /** How many notifications told the server of a changed file, and the URIs of the latest of them. */
  private changeCount = 0;
  private readonly recentChanges: string[] = [];

  constructor(
    private readonly notify: Notify,
    private readonly capabilities: () => ServerCapabilities,
    /** Whether the server registered a method dynamically. */
    private readonly registered: (method: string) => boolean,
  ) {}

  /**
   * Make the server see `text` for `path`: didOpen the first time, didChange with a new version when it
   * differs. `stamp` is the file's on disk when `text` was read from it (see {@link DiskStamp}).
   */
  sync(path: string, text: string, languageId: string, stamp?: DiskStamp): SyncedDocument {
    const uri = pathToFileURL(path).href;
    const current = this.open.get(uri);
    if (current === undefined) {
      this.open.set(uri, { version: 1, text, path, languageId, stamp });
      this.noteChange(uri);
      this.notify((connection) =>
        connection.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId, version: 1, text },
        }),
      );
      return { uri, version: 1, changed: true };
    }
    current.stamp = stamp;
    if (current.text === text) return { uri, version: current.version, changed: false };
    const version = current.version + 1;
    this.open.set(uri, { ...current, version, text });
    this.noteChange(uri);
    this.notify((connection) =>
      connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      }),
    );
    return { uri, version, changed: true };
  }

  /** A mark for {@link changedSince}: how many file changes the server was told of so far. */
  get changeMark(): number {
    return this.changeCount;
  }

  /**
   * The URIs of the files the server was told changed (opened, changed, closed, or changed on disk)
   * since `mark`. @returns undefined when too many changed to list.
   */
  changedSince(mark: number): string[] | undefined {
    const count = this.changeCount - mark;
    if (count > this.recentChanges.length) return undefined;
    return this.recentChanges.slice(this.recentChanges.length - count);
  }

  private noteChange(uri: string): void {
    this.changeCount += 1;
    this.recentChanges.push(uri);
    if (this.recentChanges.length > maxRecentChanges) this.recentChanges.shift();
  }

  /** Tell the server an open document was written to disk, when it asked to be told (`textDocumentSync.save`). */
  saved(uri: string): void {
    const document = this.open.get(uri);
    const sync = this.capabilities().textDocumentSync;
    const save = typeof sync === "object" && sync !== null ? sync.save : undefined;
    if (document === undefined || save === undefined || save === false) return;
    const includeText = typeof save === "object" && save.includeText === true;
    this.notify((connection) =>
      connection.sendNotification(DidSaveTextDocumentNotification.type, {
        textDocument: { uri },
        ...(includeText ? { text: document.text } : {}),
      }),
    );
  }

  /**
   * Open `path` with `text` for one question, unless the run keeps it open already. @returns whether
   * it is borrowed: then {@link release} it when the question is answered.
   */
  borrow(path: string, text: string, languageId: string, stamp?: DiskStamp): boolean {
    const uri = pathToFileURL(path).href;
    if (this.open.has(uri) && !this.borrowed.has(uri)) return false;
    this.sync(path, text, languageId, stamp);
    this.borrowed.set(uri, (this.borrowed.get(uri) ?? 0) + 1);
    return true;
  }

  /** Give back a document {@link borrow}ed: the last question holding it closes it. */
  release(uri: string): void {
    const holders = this.borrowed.get(uri);
    if (holders === undefined) return;
    if (holders > 1) this.borrowed.set(uri, holders - 1);
    else this.close(uri);
  }

  /** Keep `uri` open for later calls (a file a call was about), even while questions borrow it. */
  keepOpen(uri: string): void {
    this.borrowed.delete(uri);
  }

  /** Whether `uri` is open and kept open, not only borrowed for questions in flight. */
  isKeptOpen(uri: string): boolean {
    return this.open.has(uri) && !this.borrowed.has(uri);
  }

  /** Close a document (its file was deleted or renamed away, or its last borrower is done). */
  close(uri: string): void {
    this.borrowed.delete(uri);
    if (!this.open.delete(uri)) return;
    this.noteChange(uri);
    this.notify((connection) =>
      connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } }),
    );
  }

  /** The version the server has of `uri`, when it has it open. */
  version(uri: string): number | undefined {
    return this.open.get(uri)?.version;
  }

  /** The documents the server has open, with the file each came from. */
  openDocuments(): OpenEntry[] {
    return [...this.open].map(([uri, document]) => ({
      uri,
      path: document.path,
      languageId: document.languageId,
      stamp: document.stamp,
    }));
  }

  /** How many documents the server has open. */
  get openCount(): number {
    return this.open.size;
  }

  /** The text the server has of `uri` and the file's stamp when it was read, when it has it open. */
  current(uri: string): { text: string; version: number; stamp: DiskStamp | undefined } | undefined {
    const document = this.open.get(uri);
    return document === undefined
      ? undefined
      : { text: document.text, version: document.version, stamp: document.stamp };
  }

  /** Whether the server has `uri` open. */
  isOpen(uri: string): boolean {
    return this.open.has(uri);
  }

  /**
   * Tell the server files changed on disk that it does not have open (created, changed or deleted), if
   * it registered for `workspace/didChangeWatchedFiles`. @returns whether anything was sent.
   */
  filesChanged(changes: readonly FileEvent[]): boolean {
    if (changes.length === 0 || !this.registered(DidChangeWatchedFilesNotification.method)) return false;
    for (const change of changes) this.noteChange(change.uri);
    this.notify((connection) =>
      connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [...changes] }),
    );
    return true;
  }
}
