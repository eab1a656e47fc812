// A scripted language server for fault injection, run as a real child process by the tests.
// Usage: node scripted-server.mjs <scenario>; scenarios: normal, crash-on-hover, hang-on-hover,
// garbage-on-hover, crash-on-initialize, indexing, loads-on-open (reports loading the project for
// 1 s, starting 300 ms after the first didOpen, as tsserver does). Every scenario starts one helper process in its
// group (like tsserver under typescript-language-server) so tests can check that the group dies.
import { spawn } from "node:child_process";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

const scenario = process.argv[2] ?? "normal";
const helper = spawn(process.execPath, ["-e", 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: "ignore" });
process.stderr.write(`scripted server ${scenario} started, helper ${helper.pid}\n`);
if (scenario === "hang-on-hover") process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));

const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
connection.onRequest("initialize", () => {
  if (scenario === "crash-on-initialize") {
    process.stderr.write("fatal: cannot read project configuration\n");
    process.exit(2);
  }
  return { capabilities: { hoverProvider: true, definitionProvider: true, textDocumentSync: 1 }, serverInfo: { name: "scripted", version: "1" } };
});
connection.onNotification("initialized", async () => {
  if (scenario !== "indexing") return;
  await connection.sendRequest("window/workDoneProgress/create", { token: "index" });
  await connection.sendNotification("$/progress", { token: "index", value: { kind: "begin", title: "Indexing", message: "3/10 files", percentage: 30 } });
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
connection.onRequest("textDocument/hover", () => {
  if (!loaded) return { contents: "partial: syntax only" };
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
// A hung server does not answer shutdown either and ignores exit: only SIGKILL ends it.
connection.onRequest("shutdown", () => (scenario === "hang-on-hover" ? new Promise(() => {}) : null));
connection.onNotification("exit", () => {
  if (scenario !== "hang-on-hover") process.exit(0);
});
connection.listen();
