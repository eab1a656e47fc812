// An MCP client, run as its own process so a test can SIGKILL it mid-call. It starts `runbound mcp`
// with the arguments given as JSON in argv[2], makes one call and reports on stdout, one JSON line each:
// {"event":"server","pid"}, {"event":"progress","message"}, {"event":"elicitation"}, {"event":"result"}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const { command, args, tool, input } = JSON.parse(process.argv[2]);
const report = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
const client = new Client({ name: "runbound-client-until-killed", version: "1.0.0" }, { capabilities: { elicitation: {} } });
// An operator who never answers: the approval stays pending until the client is gone.
client.setRequestHandler(ElicitRequestSchema, () => {
  report({ event: "elicitation" });
  return new Promise(() => undefined);
});
await client.connect(transport);
report({ event: "server", pid: transport.pid });
const result = await client.callTool({ name: tool, arguments: input }, undefined, {
  timeout: 600_000,
  onprogress: (progress) => report({ event: "progress", message: progress.message }),
});
report({ event: "result", result });
