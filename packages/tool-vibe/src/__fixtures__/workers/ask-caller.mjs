// A worker that asks its caller, over the approval channel named in RUNBOUND_APPROVAL_FD, about the
// calls its brief lists ({"asks": [{"tool", "input"} | {"raw": params}]}), and prints the answers. With
// "then": "hang" it asks once more and never ends by itself (for a worker stopped mid-question).
import { Socket } from "node:net";
import { createMessageConnection, RequestType, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

const approve = new RequestType("runbound/approveWorkerCall");
let brief = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (brief += chunk));
process.stdin.on("end", async () => {
  const { asks, then } = JSON.parse(brief);
  const fd = process.env.RUNBOUND_APPROVAL_FD;
  if (fd === undefined) {
    process.stdout.write(JSON.stringify({ channel: "none" }));
    return;
  }
  const socket = new Socket({ fd: Number(fd), readable: true, writable: true });
  const connection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
  connection.listen();
  const answers = [];
  for (const ask of asks) answers.push(await connection.sendRequest(approve, "raw" in ask ? ask.raw : ask));
  if (then === "hang") {
    process.stdout.write(JSON.stringify({ pid: process.pid, answers }) + "\n");
    await connection.sendRequest(approve, { tool: "write", input: { path: "late.txt" } });
    process.stdout.write("the hanging question was answered\n");
    setInterval(() => undefined, 1_000);
    return;
  }
  process.stdout.write(JSON.stringify(answers));
  connection.dispose();
  socket.destroy();
});
