import { rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";
import { Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { readDiskStamp } from "./disk-stamp.js";
import { DocumentSync } from "./document-sync.js";
import { forwardWatchedFiles } from "./forward-watched-files.js";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { maxDocumentBytes, resyncFromDisk } from "./resync-from-disk.js";
import { fileTree } from "./test-support/file-tree.js";
import { fakeProject, living, scriptedServer } from "./test-support/scripted-servers.js";

interface Sent {
  method: string;
  params: unknown;
}

/** Real files in a temporary workdir, opened in a DocumentSync (from their disk text and stamp) whose notifications are recorded. */
async function openedFromDisk(files: readonly string[], watches = true) {
  const workdir = fileTree(files, "let value = 1;\n");
  const sent: Sent[] = [];
  const connection = {
    sendNotification: (type: { method: string }, params: unknown) => void sent.push({ method: type.method, params }),
  } as unknown as ProtocolConnection;
  const documents = new DocumentSync(
    (send) => void send(connection),
    () => ({}),
    () => watches,
  );
  for (const file of files) {
    const path = join(workdir, file);
    documents.sync(path, "let value = 1;\n", "typescript", (await readDiskStamp(path))!);
  }
  return {
    workdir,
    documents,
    sent,
    uri: (file: string) => pathToFileURL(join(workdir, file)).href,
    path: (file: string) => join(workdir, file),
  };
}

describe("resyncFromDisk", () => {
  it("sends nothing while every open file is as it was read", async () => {
    const { workdir, documents, sent } = await openedFromDisk(["a.ts", "b.ts"]);
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 2, changed: [], closed: [] });
    expect(sent).toHaveLength(2);
  });

  it("re-sends a file changed on disk outside the run with its new text and the next version", async () => {
    const { workdir, documents, sent, uri, path } = await openedFromDisk(["a.ts", "b.ts"]);
    writeFileSync(path("b.ts"), "let value = 2;\n");
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 2, changed: [uri("b.ts")], closed: [] });
    expect(sent.slice(2)).toEqual([
      {
        method: "textDocument/didChange",
        params: { textDocument: { uri: uri("b.ts"), version: 2 }, contentChanges: [{ text: "let value = 2;\n" }] },
      },
    ]);
    // The new stamp is remembered: the next call has nothing to do.
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 2, changed: [], closed: [] });
  });

  it("closes a file deleted on disk and tells a watching server it was deleted", async () => {
    const { workdir, documents, sent, uri, path } = await openedFromDisk(["a.ts", "b.ts"]);
    rmSync(path("a.ts"));
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 2, changed: [], closed: [uri("a.ts")] });
    expect(sent.slice(2)).toEqual([
      { method: "textDocument/didClose", params: { textDocument: { uri: uri("a.ts") } } },
      { method: "workspace/didChangeWatchedFiles", params: { changes: [{ uri: uri("a.ts"), type: 3 }] } },
    ]);
    expect(documents.isOpen(uri("a.ts"))).toBe(false);
  });

  it("closes a file grown past the document bound, telling a watching server it changed", async () => {
    const { workdir, documents, sent, uri, path } = await openedFromDisk(["big.ts"]);
    truncateSync(path("big.ts"), maxDocumentBytes + 1);
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 1, changed: [], closed: [uri("big.ts")] });
    expect(sent.slice(1).map((item) => item.method)).toEqual([
      "textDocument/didClose",
      "workspace/didChangeWatchedFiles",
    ]);
  });

  it("a file rewritten with the same text is read (its stamp changed) but not re-sent", async () => {
    const { workdir, documents, sent, path } = await openedFromDisk(["a.ts"]);
    rmSync(path("a.ts"));
    writeFileSync(path("a.ts"), "let value = 1;\n");
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 1, changed: [], closed: [] });
    expect(sent).toHaveLength(1);
  });

  it("trusts an unchanged stamp without reading the file: a same-size rewrite with its mtime put back goes unseen (the price of one stat per document)", async () => {
    const { workdir, documents, sent, path } = await openedFromDisk([]);
    writeFileSync(path("a.ts"), "let value = 1;\n");
    // Whole seconds, which utimes sets exactly, so the stamp can be made equal again.
    utimesSync(path("a.ts"), 1_000_000_000, 1_000_000_000);
    documents.sync(path("a.ts"), "let value = 1;\n", "typescript", (await readDiskStamp(path("a.ts")))!);
    writeFileSync(path("a.ts"), "let value = 9;\n");
    utimesSync(path("a.ts"), 1_000_000_000, 1_000_000_000);
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 1, changed: [], closed: [] });
    expect(sent).toHaveLength(1);
    // Any other mtime makes it read, compare and re-send.
    utimesSync(path("a.ts"), 1_000_000_001, 1_000_000_001);
    expect((await resyncFromDisk(documents, workdir)).changed).toHaveLength(1);
  });

  it("leaves out the document the caller syncs itself", async () => {
    const { workdir, documents, uri, path } = await openedFromDisk(["a.ts", "b.ts"]);
    writeFileSync(path("a.ts"), "changed\n");
    expect(await resyncFromDisk(documents, workdir, uri("a.ts"))).toEqual({ checked: 1, changed: [], closed: [] });
  });

  it("re-reads a document whose text did not come from disk (no stamp), and re-sends it when the file differs", async () => {
    const { workdir, documents, uri, path } = await openedFromDisk([]);
    writeFileSync(path("c.ts"), "on disk\n");
    documents.sync(path("c.ts"), "in memory\n", "typescript");
    expect(await resyncFromDisk(documents, workdir)).toEqual({ checked: 1, changed: [uri("c.ts")], closed: [] });
  });
});

describe("disk changes reach a scripted server through the lsp tool (a real process that logs what it is told)", () => {
  let supervisor: LspSupervisorInstance | undefined;
  afterEach(async () => {
    const pids = supervisor?.running().map((session) => session.pid) ?? [];
    await supervisor?.dispose();
    for (const pid of pids) expect(await living(pid)).toEqual([]);
  });

  it("a file created outside the run is announced as it happens; an open file deleted outside the run is closed on the next call", async () => {
    const { workdir, file } = fakeProject();
    writeFileSync(join(workdir, "project", "other.fake"), "other = 1\n");
    supervisor = createLspSupervisor({ servers: [scriptedServer("publishes")], stopGraceMs: 300 });
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
    await run.call("lsp", { op: "hover", file, line: 1, symbol: "answer" });
    await run.call("lsp", { op: "hover", file: "project/other.fake", line: 1, symbol: "other" });
    const session = supervisor.running()[0]!;
    const told = (): string[] => session.stderrTail().filter((line) => /^(watched|closed) /.test(line));
    const uri = (name: string): string => pathToFileURL(join(workdir, "project", name)).href;

    // The watch is set in the background by the first call; events count from when it is established.
    await forwardWatchedFiles(session).ready;
    writeFileSync(join(workdir, "project", "created.fake"), "new = 2\n");
    await expect.poll(told, { timeout: 5_000 }).toContain(`watched 1 ${uri("created.fake")}`);

    rmSync(join(workdir, file));
    await run.call("lsp", { op: "hover", file: "project/other.fake", line: 1, symbol: "other" });
    expect(told()).toEqual(expect.arrayContaining([`closed ${uri("main.fake")}`, `watched 3 ${uri("main.fake")}`]));
    expect(session.documents.isOpen(uri("main.fake"))).toBe(false);
  });

  it("a workspace symbol search (`query`, no `file`) re-syncs the open documents of every running server first", async () => {
    const { workdir, file } = fakeProject();
    supervisor = createLspSupervisor({ servers: [scriptedServer("publishes")], stopGraceMs: 300 });
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
    await run.call("lsp", { op: "hover", file, line: 1, symbol: "answer" });
    const session = supervisor.running()[0]!;
    rmSync(join(workdir, file));
    // The scripted server has no workspace symbols: the answer does not matter, what it was told before does.
    await run.call("lsp", { op: "symbols", query: "answer" });
    await expect
      .poll(() => session.stderrTail(), { timeout: 5_000 })
      .toContain(`closed ${pathToFileURL(join(workdir, file)).href}`);
  });
});
