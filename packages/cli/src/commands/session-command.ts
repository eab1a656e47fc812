import { createInterface } from "node:readline";
import type { CliArguments } from "../cli-arguments.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openRun } from "../open-run.js";
import { CLIENT_GONE_GRACE_MS, stopProcessIfCallsRemain } from "../stop-process-if-calls-remain.js";
import { watchParentExit } from "../watch-parent-exit.js";

interface SessionRequest {
  id?: unknown;
  tool?: unknown;
  input?: unknown;
  command?: unknown;
}

/**
 * `runbound session`: one run kept alive across JSON-line requests, so stateful tools (staged edits,
 * debug sessions, kernels) keep their state between calls. Requests are answered one at a time, in
 * order, so a request may depend on the one before it (an edit, then a read). When stdin ends, the
 * requests already received are still answered, then the run closes. When the client is gone (the
 * process that started the session exited, or stdout broke), running calls are cancelled, nothing
 * more is answered, and the process exits within about a second.
 */
export async function sessionCommand(args: CliArguments, io: CliIo): Promise<number> {
  const { run } = await openRun(args);
  const clientGone = new AbortController();
  const leave = (): void => clientGone.abort();
  const stopWatching = watchParentExit(leave);
  io.stdout.on("error", leave);
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  clientGone.signal.addEventListener("abort", () => lines.close(), { once: true });
  // A write fails only when no one reads stdout any more: the client is gone.
  const respond = (response: Record<string, unknown>): Promise<void> => writeLine(io.stdout, JSON.stringify(response)).catch(leave);

  async function handle(line: string): Promise<void> {
    let request: SessionRequest;
    try {
      request = JSON.parse(line) as SessionRequest;
    } catch (error) {
      return respond({ id: null, error: `Line is not valid JSON (${error instanceof Error ? error.message : String(error)}). Send one object per line, e.g. {"id":1,"tool":"read","input":{"path":"README.md"}}.` });
    }
    const id = request?.id ?? null;
    if (request?.command === "tools") {
      return respond({ id, tools: run.visibleTools(args.caller).map((tool) => ({ name: tool.name, tier: tool.tier, description: tool.description })) });
    }
    if (typeof request?.tool !== "string") {
      return respond({ id, error: 'A request needs "tool" (a tool name) and "input" (an object), or "command": "tools".' });
    }
    const result = await run.call(request.tool, request.input ?? {}, { signal: clientGone.signal });
    return respond({ id, result });
  }

  try {
    for await (const line of lines) {
      if (clientGone.signal.aborted) break;
      if (line.trim() !== "") await handle(line);
    }
    return 0;
  } finally {
    stopWatching();
    io.stdout.off("error", leave);
    await run.close(clientGone.signal.aborted ? { graceMs: CLIENT_GONE_GRACE_MS } : {});
    if (clientGone.signal.aborted) stopProcessIfCallsRemain(run);
  }
}
