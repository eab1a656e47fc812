import { pathToFileURL } from "node:url";
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";
import { describe, expect, it } from "vitest";
import { DocumentSync } from "./document-sync.js";

interface Sent {
  method: string;
  params: unknown;
}

/** A DocumentSync whose notifications go to a connection that only records what it is sent. */
function recordingSync(
  capabilities: ServerCapabilities = {},
  registeredMethods: readonly string[] = [],
): { sync: DocumentSync; sent: Sent[]; asked: string[] } {
  const sent: Sent[] = [];
  const asked: string[] = [];
  const connection = {
    sendNotification: (type: { method: string }, params: unknown) => {
      sent.push({ method: type.method, params });
      return Promise.resolve();
    },
  } as unknown as ProtocolConnection;
  const sync = new DocumentSync(
    (send) => void send(connection),
    () => capabilities,
    (method) => {
      asked.push(method);
      return registeredMethods.includes(method);
    },
  );
  return { sync, sent, asked };
}

const path = "/w/src/a.ts";
const uri = pathToFileURL(path).href;

describe("DocumentSync.sync", () => {
  it("opens a document the first time with version 1, its language and its text", () => {
    const { sync, sent } = recordingSync();
    expect(sync.openCount).toBe(0);
    expect(sync.sync(path, "let a = 1;\n", "typescript")).toEqual({ uri, version: 1, changed: true });
    expect(sent).toEqual([
      {
        method: "textDocument/didOpen",
        params: { textDocument: { uri, languageId: "typescript", version: 1, text: "let a = 1;\n" } },
      },
    ]);
    expect(sync.isOpen(uri)).toBe(true);
    expect(sync.version(uri)).toBe(1);
  });

  it("sends nothing for the same text again, and the full new text with the next version when it differs", () => {
    const { sync, sent } = recordingSync();
    sync.sync(path, "one", "typescript");
    expect(sync.sync(path, "one", "typescript")).toEqual({ uri, version: 1, changed: false });
    expect(sent).toHaveLength(1);
    expect(sync.sync(path, "two", "typescript")).toEqual({ uri, version: 2, changed: true });
    expect(sync.sync(path, "two", "typescript")).toEqual({ uri, version: 2, changed: false });
    expect(sync.sync(path, "three", "typescript")).toEqual({ uri, version: 3, changed: true });
    expect(sent.slice(1)).toEqual([
      {
        method: "textDocument/didChange",
        params: { textDocument: { uri, version: 2 }, contentChanges: [{ text: "two" }] },
      },
      {
        method: "textDocument/didChange",
        params: { textDocument: { uri, version: 3 }, contentChanges: [{ text: "three" }] },
      },
    ]);
    expect(sync.version(uri)).toBe(3);
  });

  it("keeps documents apart by file, and counts the open ones", () => {
    const { sync, sent } = recordingSync();
    sync.sync(path, "same", "typescript");
    expect(sync.sync("/w/src/b.py", "same", "python")).toEqual({
      uri: pathToFileURL("/w/src/b.py").href,
      version: 1,
      changed: true,
    });
    expect(sent.map((item) => item.method)).toEqual(["textDocument/didOpen", "textDocument/didOpen"]);
    expect(sync.openCount).toBe(2);
    sync.sync(path, "changed", "typescript");
    expect(sync.openCount).toBe(2);
    sync.close(uri);
    expect(sync.openCount).toBe(1);
    expect(sync.version(pathToFileURL("/w/src/c.ts").href)).toBeUndefined();
    expect(sync.isOpen(pathToFileURL("/w/src/c.ts").href)).toBe(false);
  });
});

describe("DocumentSync disk stamps", () => {
  const stamp = (mtimeNs: bigint) => ({ size: 10n, mtimeNs, ino: 7n });

  it("lists the open documents with their file, language and the stamp their text was read with", () => {
    const { sync } = recordingSync();
    sync.sync(path, "one", "typescript", stamp(1n));
    sync.sync("/w/src/b.py", "two", "python");
    expect(sync.openDocuments()).toEqual([
      { uri, path, languageId: "typescript", stamp: stamp(1n) },
      { uri: pathToFileURL("/w/src/b.py").href, path: "/w/src/b.py", languageId: "python", stamp: undefined },
    ]);
  });

  it("keeps the newest stamp, also when the text is the same (a file rewritten with the same content), and forgets it for text not read from disk", () => {
    const { sync, sent } = recordingSync();
    sync.sync(path, "one", "typescript", stamp(1n));
    sync.sync(path, "one", "typescript", stamp(2n));
    expect(sent).toHaveLength(1);
    expect(sync.openDocuments()[0]!.stamp).toEqual(stamp(2n));
    sync.sync(path, "two", "typescript");
    expect(sync.openDocuments()[0]).toEqual({ uri, path, languageId: "typescript", stamp: undefined });
  });
});

describe("DocumentSync borrowed documents", () => {
  const methods = (sent: readonly Sent[]): string[] => sent.map((entry) => entry.method.replace("textDocument/", ""));

  it("opens a borrowed document once for all its borrowers and closes it when the last gives it back", () => {
    const { sync, sent } = recordingSync();
    expect(sync.borrow(path, "one", "typescript")).toBe(true);
    expect(sync.borrow(path, "one", "typescript")).toBe(true);
    expect(sync.isOpen(uri)).toBe(true);
    expect(sync.isKeptOpen(uri)).toBe(false);
    sync.release(uri);
    expect(sync.isOpen(uri)).toBe(true);
    sync.release(uri);
    expect(sync.isOpen(uri)).toBe(false);
    // A release too many, or of a document never borrowed, changes nothing.
    sync.release(uri);
    expect(methods(sent)).toEqual(["didOpen", "didClose"]);
  });

  it("does not borrow a document the run keeps open, and never closes one a call kept open while it was borrowed", () => {
    const { sync, sent } = recordingSync();
    sync.sync(path, "one", "typescript");
    expect(sync.borrow(path, "one", "typescript")).toBe(false);
    sync.release(uri);
    expect(sync.isKeptOpen(uri)).toBe(true);

    const other = "/w/src/b.ts";
    const otherUri = pathToFileURL(other).href;
    expect(sync.borrow(other, "two", "typescript")).toBe(true);
    // A call about the file (openDocument) keeps it: the borrower's release leaves it open.
    sync.sync(other, "two", "typescript");
    sync.keepOpen(otherUri);
    sync.release(otherUri);
    expect(sync.isKeptOpen(otherUri)).toBe(true);
    expect(methods(sent)).toEqual(["didOpen", "didOpen"]);
  });

  it("forgets the borrowers of a document closed for another reason (its file deleted)", () => {
    const { sync, sent } = recordingSync();
    sync.borrow(path, "one", "typescript");
    sync.close(uri);
    sync.release(uri);
    expect(methods(sent)).toEqual(["didOpen", "didClose"]);
    sync.sync(path, "one", "typescript");
    expect(sync.isKeptOpen(uri)).toBe(true);
  });
});

describe("DocumentSync.saved", () => {
  const savedAfterOpen = (capabilities: ServerCapabilities): Sent[] => {
    const { sync, sent } = recordingSync(capabilities);
    sync.sync(path, "text on disk", "typescript");
    sync.saved(uri);
    return sent.slice(1);
  };

  it("sends didSave, with the text only when the server asked for it", () => {
    expect(savedAfterOpen({ textDocumentSync: { save: true } })).toEqual([
      { method: "textDocument/didSave", params: { textDocument: { uri } } },
    ]);
    expect(savedAfterOpen({ textDocumentSync: { save: {} } })).toEqual([
      { method: "textDocument/didSave", params: { textDocument: { uri } } },
    ]);
    expect(savedAfterOpen({ textDocumentSync: { save: { includeText: false } } })).toEqual([
      { method: "textDocument/didSave", params: { textDocument: { uri } } },
    ]);
    expect(savedAfterOpen({ textDocumentSync: { save: { includeText: true } } })).toEqual([
      { method: "textDocument/didSave", params: { textDocument: { uri }, text: "text on disk" } },
    ]);
  });

  it("sends nothing when the server did not ask to be told of saves", () => {
    expect(savedAfterOpen({})).toEqual([]);
    expect(savedAfterOpen({ textDocumentSync: 1 })).toEqual([]);
    expect(savedAfterOpen({ textDocumentSync: { openClose: true, change: 1 } })).toEqual([]);
    expect(savedAfterOpen({ textDocumentSync: { save: false } })).toEqual([]);
    expect(savedAfterOpen({ textDocumentSync: null } as unknown as ServerCapabilities)).toEqual([]);
  });

  it("sends nothing for a document the server does not have open", () => {
    const { sync, sent } = recordingSync({ textDocumentSync: { save: { includeText: true } } });
    sync.saved(uri);
    expect(sent).toEqual([]);
  });

  it("reads the capabilities when it is called, not when it was made", () => {
    let capabilities: ServerCapabilities = {};
    const sent: Sent[] = [];
    const connection = {
      sendNotification: (type: { method: string }, params: unknown) => void sent.push({ method: type.method, params }),
    } as unknown as ProtocolConnection;
    const sync = new DocumentSync(
      (send) => void send(connection),
      () => capabilities,
      () => false,
    );
    sync.sync(path, "x", "typescript");
    capabilities = { textDocumentSync: { save: true } };
    sync.saved(uri);
    expect(sent.map((item) => item.method)).toEqual(["textDocument/didOpen", "textDocument/didSave"]);
  });
});

describe("DocumentSync.close", () => {
  it("closes an open document once, and then opens it afresh with version 1", () => {
    const { sync, sent } = recordingSync();
    sync.sync(path, "a", "typescript");
    sync.sync(path, "b", "typescript");
    sync.close(uri);
    sync.close(uri);
    expect(sent.slice(2)).toEqual([{ method: "textDocument/didClose", params: { textDocument: { uri } } }]);
    expect(sync.isOpen(uri)).toBe(false);
    expect(sync.version(uri)).toBeUndefined();
    expect(sync.sync(path, "b", "typescript")).toEqual({ uri, version: 1, changed: true });
  });

  it("sends nothing for a document that was never open", () => {
    const { sync, sent } = recordingSync();
    sync.close(uri);
    expect(sent).toEqual([]);
  });
});

describe("DocumentSync.filesChanged", () => {
  const events = [
    { uri: "file:///w/src/new.ts", type: 1 as const },
    { uri: "file:///w/src/old.ts", type: 3 as const },
  ];

  it("sends the events when the server registered for watched files", () => {
    const { sync, sent, asked } = recordingSync({}, ["workspace/didChangeWatchedFiles"]);
    expect(sync.filesChanged(events)).toBe(true);
    expect(asked).toEqual(["workspace/didChangeWatchedFiles"]);
    expect(sent).toEqual([{ method: "workspace/didChangeWatchedFiles", params: { changes: events } }]);
  });

  it("sends nothing, and says so, when the server did not register or there is nothing to tell", () => {
    const unregistered = recordingSync({}, ["textDocument/didSave"]);
    expect(unregistered.sync.filesChanged(events)).toBe(false);
    expect(unregistered.sent).toEqual([]);
    const registered = recordingSync({}, ["workspace/didChangeWatchedFiles"]);
    expect(registered.sync.filesChanged([])).toBe(false);
    expect(registered.sent).toEqual([]);
  });
});

describe("DocumentSync.changedSince: the files the server was told changed after a mark", () => {
  it("lists opened, changed, closed and watched files after the mark, and not a sync that sent nothing", () => {
    const { sync } = recordingSync({}, ["workspace/didChangeWatchedFiles"]);
    sync.sync(path, "one", "typescript");
    const mark = sync.changeMark;
    sync.sync(path, "one", "typescript");
    expect(sync.changedSince(mark)).toEqual([]);
    sync.sync(path, "two", "typescript");
    const other = pathToFileURL("/w/src/b.ts").href;
    sync.filesChanged([{ uri: other, type: 2 }]);
    sync.close(uri);
    expect(sync.changedSince(mark)).toEqual([uri, other, uri]);
  });

  it("says it cannot list them when more changed than it remembers", () => {
    const { sync } = recordingSync();
    const mark = sync.changeMark;
    for (let index = 0; index < 300; index += 1) sync.sync(path, `text ${index}`, "typescript");
    expect(sync.changedSince(mark)).toBeUndefined();
    expect(sync.changedSince(sync.changeMark)).toEqual([]);
  });
});
