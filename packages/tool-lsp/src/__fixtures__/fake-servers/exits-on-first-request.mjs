// A language server that answers `initialize`, then dies on the first other request it receives,
// before answering it: it closes its input, asks the client something (so the client's answer is
// written to a pipe nobody reads: EPIPE), and exits with code 7 a moment later. This is the order a
// dying process shows a client: its pipe fails first, its exit is reported after (the exit of a
// process group is reported once the group is gone). With the argument `keeps-running` it closes its
// input the same way but never exits. Run as a real child process by the tests.
// `closes-input-on-initialize`: see there.
import { closeSync } from "node:fs";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
const capabilities = { hoverProvider: true, definitionProvider: true, textDocumentSync: 1 };
connection.onRequest("initialize", () => {
  // With `closes-input-on-initialize` it closes its input as it answers `initialize`, so every later
  // request fails to be written (EPIPE) a second before its exit with code 7 is known.
  if (process.argv[2] === "closes-input-on-initialize") {
    process.stderr.write(`fatal: lost the client (pid ${process.pid})\n`);
    process.stdin.destroy();
    closeSync(0);
    setTimeout(() => process.exit(7), 1_000);
  }
  return { capabilities, serverInfo: { name: "exits-on-first-request", version: "1" } };
});
connection.onRequest("shutdown", () => null);
connection.onNotification("exit", () => process.exit(0));
connection.onRequest((method) => {
  process.stderr.write(`fatal: cannot handle ${method} (pid ${process.pid})\n`);
  // Destroying the stream leaves descriptor 0 open (Node keeps its stdio); close it, so the pipe has no reader.
  process.stdin.destroy();
  closeSync(0);
  connection.sendRequest("window/workDoneProgress/create", { token: "dying" }).catch(() => undefined);
  // With its input closed nothing else keeps the event loop alive: a timer keeps it running or ends it.
  if (process.argv[2] === "keeps-running") setInterval(() => undefined, 1_000);
  else setTimeout(() => process.exit(7), 200);
  return new Promise(() => {});
});
connection.listen();
