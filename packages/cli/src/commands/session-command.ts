import { createInterface } from "node:readline";
import { exportToolSchemas } from "@runbound/runner-adapter";
import type { CliArguments } from "../cli-arguments.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openRun } from "../open-run.js";
import { progressOnStderr } from "../progress-on-stderr.js";
import { nonObjectKind } from "../parse-json-input.js";
import { CLIENT_GONE_GRACE_MS, stopProcessIfCallsRemain } from "../stop-process-if-calls-remain.js";
import { watchParentExit } from "../watch-parent-exit.js";

interface SessionRequest {
  id?: unknown;
  tool?: unknown;
  input?: unknown;
  command?: unknown;
}

const EXAMPLE_REQUEST = '{"id":1,"tool":"read","input":{"path":"README.md"}}';

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
  const respond = (response: Record<string, unknown>): Promise<void> =>
    writeLine(io.stdout, JSON.stringify(response)).catch(leave);

  async function handle(line: string): Promise<void> {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch (error) {
      return respond({
        id: null,
        error: `Line is not valid JSON (${error instanceof Error ? error.message : String(error)}). Send one object per line, as in ${EXAMPLE_REQUEST}.`,
      });
    }
    const kind = nonObjectKind(request);
    if (kind !== undefined)
      return respond({
        id: null,
        error: `A request is a JSON object, but the line is ${kind}. Send one object per line, as in ${EXAMPLE_REQUEST}.`,
      });
    const { id = null, tool, input = {}, command } = request as SessionRequest;
    if (command !== undefined) {
      if (command !== "tools")
        return respond({
          id,
          error: `Unknown command \`${JSON.stringify(command)}\`. The one session command is {"command":"tools"}; to call a tool, send ${EXAMPLE_REQUEST}.`,
        });
      return respond({ id, tools: exportToolSchemas(run.visibleTools(args.caller), "json") });
    }
    if (typeof tool !== "string") {
      return respond({
        id,
        error: `A request needs "tool", a tool name; this one has ${tool === undefined ? "none" : `\`${JSON.stringify(tool)}\``}. Send ${EXAMPLE_REQUEST} ("input" is optional and defaults to {}), or {"command":"tools"} to list the tools.`,
      });
    }
    // An input that is not an object reaches the run, whose validation answers it as the tool's error.
    const onProgress = progressOnStderr(io.stderr, tool);
    const result = await run.call(tool, input, {
      signal: clientGone.signal,
      ...(onProgress === undefined ? {} : { onProgress }),
    });
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
