import { createInterface } from "node:readline";
import type { CliArguments } from "../cli-arguments.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openRun } from "../open-run.js";

interface SessionRequest {
  id?: unknown;
  tool?: unknown;
  input?: unknown;
  command?: unknown;
}

/**
 * `runbound session`: one run kept alive across JSON-line requests, so stateful tools (staged edits,
 * debug sessions, kernels) keep their state between calls. Requests are answered one at a time, in
 * order, so a request may depend on the one before it (an edit, then a read). The run closes when
 * stdin ends.
 */
export async function sessionCommand(args: CliArguments, io: CliIo): Promise<number> {
  const { run } = await openRun(args);
  const respond = (response: Record<string, unknown>): Promise<void> => writeLine(io.stdout, JSON.stringify(response));

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
    const result = await run.call(request.tool, request.input ?? {});
    return respond({ id, result });
  }

  try {
    for await (const line of createInterface({ input: io.stdin, crlfDelay: Infinity })) {
      if (line.trim() !== "") await handle(line);
    }
    return 0;
  } finally {
    await run.close();
  }
}
