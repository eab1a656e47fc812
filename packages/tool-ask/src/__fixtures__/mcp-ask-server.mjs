// An MCP server over stdio as `runbound mcp` is to wire it: when the client declares elicitation,
// an elicitation ask port (and a target space) is attached and approvals go through the port
// approver. `ASK_TIMEOUT_MS` sets ask_user's budget. Prints "closed" on stderr once the run is closed.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { askFor, createRun } from "@runbound/runner-adapter";
import { serveRunOverMcp } from "@runbound/runner-adapter/mcp";
import { definePlugin, defineTool, TargetSpace } from "@runbound/tool-kit";
import * as v from "valibot";
import { AskPort, createAskPlugin, createElicitationAskPort, createPortApprover } from "../../dist/index.js";

const save = defineTool({
  name: "save",
  tier: "write",
  description: "Pretends to write.",
  input: v.strictObject({ text: v.pipe(v.string(), v.description("What to write.")) }),
  requires: [],
  parallelSafe: true,
  run: async (input) => `saved ${input.text}`,
});
const timeoutMs = Number(process.env["ASK_TIMEOUT_MS"] ?? 600_000);
const run = createRun({ plugins: [createAskPlugin({ timeoutMs }), definePlugin({ name: "fixture-writes", version: "1.0.0", tools: [save] })], approvalPolicy: askFor(["write"]) });
const { closed, close } = serveRunOverMcp(new StdioServerTransport(), run, {
  serverInfo: { name: "ask-fixture", version: "1.0.0" },
  closeGraceMs: 250,
  elicitationApprovals: false,
  onClientInitialized: async (client) => {
    if (!client.supportsElicitation) return;
    const port = createElicitationAskPort(client.elicit);
    run.setApprover(createPortApprover(port));
    await run.attach(TargetSpace, { value: { id: "mcp", label: `the MCP client ${client.clientInfo?.name ?? "(unnamed)"}` } });
    await run.attach(AskPort, { value: port });
  },
});
process.stdin.once("end", () => void close());
await closed;
process.stderr.write("closed\n");
