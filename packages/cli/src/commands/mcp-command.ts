import { serveRunOverMcp, SizeLimitedStdioServerTransport } from "@runbound/runner-adapter/mcp";
import { createElicitationAskPort } from "@runbound/tool-ask";
import type { CliArguments } from "../cli-arguments.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { attachAskPort } from "../attach-ask-port.js";
import { describeOversizedMessage } from "./describe-oversized-message.js";
import { openRun } from "../open-run.js";
import { CLIENT_GONE_GRACE_MS, stopProcessIfCallsRemain } from "../stop-process-if-calls-remain.js";
import { CLI_VERSION } from "../version.js";

/**
 * `runbound mcp`: one run served over MCP stdio; it ends, with its resources, when the client
 * disconnects: running calls are cancelled and the process exits within about a second.
 */
export async function mcpCommand(args: CliArguments, io: CliIo): Promise<number> {
  // stdout carries JSON-RPC: a plugin's console.log (at import or in a call) would corrupt the stream,
  // so it goes to stderr for as long as this command runs.
  const consoleToStdout = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  try {
    return await serve(args, io);
  } finally {
    Object.assign(console, consoleToStdout);
  }
}

async function serve(args: CliArguments, io: CliIo): Promise<number> {
  const { run } = await openRun(args);
  // A message over the SDK's 10 MiB limit is refused with an error; the SDK's own transport would end the run.
  const transport = new SizeLimitedStdioServerTransport(io.stdin, io.stdout, {
    onOversizedMessage: (message, answer) =>
      void writeLine(io.stderr, describeOversizedMessage(message, answer)).catch(() => undefined),
  });
  const { closed, close } = serveRunOverMcp(transport, run, {
    serverInfo: { name: "runbound", version: CLI_VERSION },
    caller: args.caller,
    closeGraceMs: CLIENT_GONE_GRACE_MS,
    // Questions and permission prompts both go through the ask port, as one kind of card.
    elicitationApprovals: false,
    onClientInitialized: async (client) => {
      if (!client.supportsElicitation) return;
      const label = client.clientInfo === undefined ? "the MCP client" : `the MCP client ${client.clientInfo.name}`;
      await attachAskPort(run, createElicitationAskPort(client.elicit), { id: "mcp-client", label }, args.askTiers);
    },
  });
  // Every way the connection can end means the client is gone: stdin closing (how an MCP client
  // says goodbye over stdio), stdout breaking (EPIPE: no one reads the answers), or a signal.
  const stop = (): void => void close();
  io.stdin.once("end", stop);
  io.stdout.on("error", stop);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await closed;
    stopProcessIfCallsRemain(run);
    return 0;
  } finally {
    io.stdin.off("end", stop);
    io.stdout.off("error", stop);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await run.close({ graceMs: CLIENT_GONE_GRACE_MS });
  }
}
