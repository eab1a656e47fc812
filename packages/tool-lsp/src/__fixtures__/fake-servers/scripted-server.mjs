// A scripted language server for fault injection, run as a real child process by the tests.
// Usage: node scripted-server.mjs <scenario>; scenarios: normal, crash-on-hover, hang-on-hover,
// garbage-on-hover, crash-on-initialize, indexing, loads-on-open (reports loading the project for
// 1 s, starting 300 ms after the first didOpen, as tsserver does), publishes (publishes versioned
// diagnostics 50 ms after each didOpen/didChange: a line `ERROR: msg` is an error, `WARN: msg` a
// warning, `HINT: msg` a hint, `CRASH` makes it exit; it registers for watched files and writes each
// watched-file event and didSave to stderr), publishes-slow-start (the same, answering initialize
// after 1.5 s), rename-outside (answers a rename with an edit that also changes a file outside the
// project, named by RUNBOUND_FAKE_OUTSIDE), rename-with-file (answers with an edit of the document and
// a RenameFile of it to renamed.fake), content-modified-N (answers the first N hovers with the
// ContentModified error, as a server does when its state changed during a request), hang-after-initialize
// (answers initialize, then no request at all), hang-on-initialize (never answers initialize),
// hang-first-diagnostic (offers pull diagnostics, built from the text like publishes; the first process
// started in a root hangs on its first pull and leaves a `.hung-once` marker there, later ones answer),
// indexes-then-answers (reports `Indexing` work from initialized for 2.5 s and answers hover only after it),
// navigates (answers references with a place in main.fake and one in helper.fake beside it, and
// documentSymbol with one function `run` over the whole file, appending each documentSymbol's URI to
// `.symbol-requests` in its root, and each didOpen/didClose to `.document-events`).
// Every hang-* scenario also ignores SIGTERM, shutdown and exit: only SIGKILL ends it. Every scenario
// starts one helper process in its group (like tsserver under typescript-language-server) so tests can
// check that the group dies.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

const scenario = process.argv[2] ?? "normal";
const helper = spawn(process.execPath, ["-e", 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: "ignore" });
process.stderr.write(`scripted server ${scenario} started, helper ${helper.pid}\n`);
const hangs = scenario.startsWith("hang-");
if (hangs) process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
const never = () => new Promise(() => {});

const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
const publishes = scenario.startsWith("publishes");
connection.onRequest("initialize", async () => {
  if (scenario === "crash-on-initialize") {
    process.stderr.write("fatal: cannot read project configuration\n");
    process.exit(2);
  }
  if (scenario === "publishes-slow-start") await new Promise((resolve) => setTimeout(resolve, 1500));
  if (scenario === "hang-on-initialize") {
    process.stderr.write("waiting for a lock that never frees\n");
    return never();
  }
  const textDocumentSync = publishes ? { openClose: true, change: 1, save: { includeText: false } } : 1;
  const pulls = scenario === "hang-first-diagnostic" ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {};
  const navigation = scenario === "navigates" ? { referencesProvider: true, documentSymbolProvider: true } : {};
  return { capabilities: { hoverProvider: true, definitionProvider: true, renameProvider: true, textDocumentSync, ...pulls, ...navigation }, serverInfo: { name: "scripted", version: "1" } };
});

const severities = { ERROR: 1, WARN: 2, HINT: 4 };
function diagnosticsOf(text) {
  const diagnostics = [];
  text.split("\n").forEach((line, index) => {
    const match = /^(ERROR|WARN|HINT): (.*)$/.exec(line);
    if (match) diagnostics.push({ range: { start: { line: index, character: 0 }, end: { line: index, character: line.length } }, severity: severities[match[1]], code: "E1", source: "fake", message: match[2] });
  });
  return diagnostics;
}
function publish(uri, version, text) {
  if (text.includes("CRASH")) {
    process.stderr.write("fatal: crashed while checking\n");
    process.exit(4);
  }
  const diagnostics = diagnosticsOf(text);
  setTimeout(() => void connection.sendNotification("textDocument/publishDiagnostics", { uri, version, diagnostics }), 50);
}
let indexed;
connection.onNotification("initialized", async () => {
  if (scenario !== "indexing" && scenario !== "indexes-then-answers") return;
  await connection.sendRequest("window/workDoneProgress/create", { token: "index" });
  await connection.sendNotification("$/progress", { token: "index", value: { kind: "begin", title: "Indexing", message: "3/10 files", percentage: 30 } });
  if (scenario !== "indexes-then-answers") return;
  indexed = new Promise((resolve) => {
    setTimeout(() => {
      void connection.sendNotification("$/progress", { token: "index", value: { kind: "end" } });
      resolve();
    }, 2500);
  });
});
let loaded = scenario !== "loads-on-open";
connection.onNotification("textDocument/didOpen", () => {
  if (scenario !== "loads-on-open") return;
  setTimeout(async () => {
    await connection.sendRequest("window/workDoneProgress/create", { token: "load" });
    await connection.sendNotification("$/progress", { token: "load", value: { kind: "begin", title: "Loading project" } });
    setTimeout(() => {
      loaded = true;
      void connection.sendNotification("$/progress", { token: "load", value: { kind: "end" } });
    }, 1000);
  }, 300);
});
let modifiedAnswers = Number(/^content-modified-(\d+)$/.exec(scenario)?.[1] ?? 0);
connection.onRequest("textDocument/hover", async () => {
  if (scenario === "indexes-then-answers") {
    while (indexed === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    await indexed;
  }
  if (!loaded) return { contents: "partial: syntax only" };
  if (modifiedAnswers > 0) {
    modifiedAnswers -= 1;
    process.stderr.write("answered ContentModified\n");
    return new ResponseError(-32801, "content modified");
  }
  if (scenario === "crash-on-hover") {
    process.stderr.write("fatal: segmentation fault in hover\n");
    process.exit(3);
  }
  if (scenario === "hang-on-hover") return new Promise(() => {});
  if (scenario === "garbage-on-hover") {
    process.stdout.write("Content-Length: 12\r\n\r\nthis is not");
    process.stdout.write("\r\n\r\n{{{ garbage without any header\r\n\r\n");
    return new Promise(() => {});
  }
  if (scenario === "indexing") return null;
  return { contents: { kind: "markdown", value: "```fake\nfunction answer(): number\n```\nThe answer." } };
});
connection.onRequest("textDocument/definition", (params) => ({ uri: params.textDocument.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }));
connection.onRequest("textDocument/rename", (params) => {
  const { line, character } = params.position;
  const here = { range: { start: { line, character }, end: { line, character: character + 6 } }, newText: params.newName };
  if (scenario === "rename-outside") {
    return { changes: { [params.textDocument.uri]: [here], [`file://${process.env.RUNBOUND_FAKE_OUTSIDE}`]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: "owned " }] } };
  }
  if (scenario === "rename-with-file") {
    const renamed = params.textDocument.uri.replace(/main\.fake$/, "renamed.fake");
    return { documentChanges: [{ textDocument: { uri: params.textDocument.uri, version: null }, edits: [here] }, { kind: "rename", oldUri: params.textDocument.uri, newUri: renamed }] };
  }
  return null;
});
if (scenario === "navigates") {
  const place = (uri, line) => ({ uri, range: { start: { line, character: 0 }, end: { line, character: 1 } } });
  connection.onRequest("textDocument/references", (params) => [place(params.textDocument.uri, 1), place(params.textDocument.uri.replace(/[^/]+$/, "helper.fake"), 0)]);
  connection.onRequest("textDocument/documentSymbol", (params) => {
    appendFileSync(".symbol-requests", `${params.textDocument.uri}\n`);
    const whole = { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } };
    return [{ name: "run", kind: 12, range: whole, selectionRange: whole }];
  });
  // Which documents the client opens and closes, for the test to see none is left open.
  for (const event of ["didOpen", "didClose"])
    connection.onNotification(`textDocument/${event}`, (params) => appendFileSync(".document-events", `${event} ${params.textDocument.uri}\n`));
}
// A hung server does not answer shutdown either and ignores exit: only SIGKILL ends it.
connection.onRequest("shutdown", () => (hangs ? never() : null));
connection.onNotification("exit", () => {
  if (!hangs) process.exit(0);
});
// The pull of hang-first-diagnostic, on the text the client synced.
const texts = new Map();
if (scenario === "hang-first-diagnostic") {
  connection.onNotification("textDocument/didOpen", (params) => texts.set(params.textDocument.uri, params.textDocument.text));
  connection.onNotification("textDocument/didChange", (params) => texts.set(params.textDocument.uri, params.contentChanges[0].text));
  connection.onRequest("textDocument/diagnostic", (params) => {
    if (!existsSync(".hung-once")) {
      writeFileSync(".hung-once", `${process.pid}\n`);
      process.stderr.write("stuck in the type checker\n");
      return never();
    }
    return { kind: "full", items: diagnosticsOf(texts.get(params.textDocument.uri) ?? "") };
  });
}
if (scenario === "hang-after-initialize") {
  process.stderr.write("deadlocked after initialize\n");
  for (const method of ["textDocument/hover", "textDocument/definition", "textDocument/rename", "textDocument/references"]) connection.onRequest(method, never);
  connection.onRequest(never);
}
// Registered last: a later handler for the same method replaces an earlier one.
if (publishes) {
  connection.onNotification("initialized", () => {
    void connection.sendRequest("client/registerCapability", { registrations: [{ id: "watch", method: "workspace/didChangeWatchedFiles", registerOptions: { watchers: [{ globPattern: "**/*" }] } }] });
  });
  connection.onNotification("textDocument/didOpen", (params) => publish(params.textDocument.uri, params.textDocument.version, params.textDocument.text));
  connection.onNotification("textDocument/didChange", (params) => publish(params.textDocument.uri, params.textDocument.version, params.contentChanges[0].text));
  connection.onNotification("textDocument/didSave", (params) => process.stderr.write(`saved ${params.textDocument.uri}\n`));
  connection.onNotification("textDocument/didClose", (params) => process.stderr.write(`closed ${params.textDocument.uri}\n`));
  connection.onNotification("workspace/didChangeWatchedFiles", (params) => {
    for (const change of params.changes) process.stderr.write(`watched ${change.type} ${change.uri}\n`);
  });
}
connection.listen();
