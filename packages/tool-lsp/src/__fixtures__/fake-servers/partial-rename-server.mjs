// A fake language server for the rename cross-check, run as a real child process by the tests.
// Usage: node partial-rename-server.mjs <scenario>. The project is main.fake (`answer = 42` /
// `print(answer)`) and other.fake (`from main import answer as alias` / `print(alias)`) beside it.
// Scenarios:
//   partial            renames the declaration only, while its references list three places;
//   alias              renames every `answer`, and its references add `alias` on other.fake:2
//                      (a use through an alias, which a rename rightly leaves alone);
//   partial-no-references  renames the declaration only and offers no referencesProvider;
//   references-fail    renames the declaration only and answers references with an error.
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

const scenario = process.argv[2] ?? "partial";
process.stderr.write(`partial-rename server ${scenario} started\n`);
const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));

const range = (line, from, to) => ({ start: { line, character: from }, end: { line, character: to } });
const otherOf = (uri) => uri.replace(/main\.fake$/, "other.fake");

connection.onRequest("initialize", () => ({
  capabilities: { textDocumentSync: 1, renameProvider: true, ...(scenario === "partial-no-references" ? {} : { referencesProvider: true }) },
  serverInfo: { name: "partial-rename", version: "1" },
}));

connection.onRequest("textDocument/rename", (params) => {
  const main = params.textDocument.uri;
  const declaration = { range: range(0, 0, 6), newText: params.newName };
  if (scenario !== "alias") return { changes: { [main]: [declaration] } };
  return { changes: { [main]: [declaration, { range: range(1, 6, 12), newText: params.newName }], [otherOf(main)]: [{ range: range(0, 17, 23), newText: params.newName }] } };
});

connection.onRequest("textDocument/references", (params) => {
  if (scenario === "references-fail") throw new ResponseError(-32603, "references are not ready");
  const main = params.textDocument.uri;
  const other = otherOf(main);
  const found = [
    { uri: main, range: range(0, 0, 6) },
    { uri: main, range: range(1, 6, 12) },
    { uri: other, range: range(0, 17, 23) },
  ];
  if (scenario === "alias") found.push({ uri: other, range: range(1, 6, 11) });
  return found;
});

connection.onRequest("shutdown", () => null);
connection.onNotification("exit", () => process.exit(0));
connection.listen();
