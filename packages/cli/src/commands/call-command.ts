import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTerminalAskPort } from "@runbound/tool-ask";
import type { ToolResult } from "@runbound/tool-kit";
import type { CliArguments } from "../cli-arguments.js";
import { isTerminal, writeLine, type CliIo } from "../cli-io.js";
import { isClosedOutputError } from "../closed-output.js";
import { createImageDirectory } from "../image-directory.js";
import { attachAskPort } from "../attach-ask-port.js";
import { openRun } from "../open-run.js";
import { progressOnStderr } from "../progress-on-stderr.js";
import { parseJsonInput } from "../parse-json-input.js";
import { EXIT_CODES, UsageError } from "../usage-error.js";

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

const extensions: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
};

async function printResult(result: ToolResult, io: CliIo): Promise<void> {
  let imageDirectory: string | undefined;
  let imageCount = 0;
  for (const part of result.content) {
    if (part.type === "text") {
      await writeLine(io.stdout, part.text);
      continue;
    }
    imageDirectory ??= await createImageDirectory();
    imageCount += 1;
    const path = join(imageDirectory, `image-${imageCount}.${extensions[part.mimeType] ?? "bin"}`);
    await writeFile(path, Buffer.from(part.data, "base64"));
    await writeLine(io.stdout, `[image ${part.mimeType} saved to ${path}]`);
  }
}

async function readInput(inputText: string | undefined, io: CliIo): Promise<Record<string, unknown>> {
  // No input is an empty object: a tool whose fields are all optional needs none, and one that
  // needs fields answers an error naming them (exit 1, like any input the tool rejects).
  if (inputText === undefined) return {};
  return inputText === "-" ? parseJsonInput(await readAll(io.stdin), "stdin") : parseJsonInput(inputText, "argument");
}

/** `runbound call <tool> '<json>'`: one call; the result's text on stdout; exit 1 when it is an error. */
export async function callCommand(args: CliArguments, io: CliIo): Promise<number> {
  const [toolName, inputText] = args.positionals;
  if (toolName === undefined)
    throw new UsageError(
      '`runbound call` needs the name of a tool, as in `runbound call read \'{"path":"README.md"}\'`. Run `runbound tools` to list the tools.',
    );
  const format = args.format ?? "text";
  if (format !== "text" && format !== "json")
    throw new UsageError(`Unknown format \`${format}\` for call. Use --format text or --format json.`);
  const input = await readInput(inputText, io);
  const { run } = await openRun(args);
  try {
    // Someone at a terminal can be asked (ask_user, and the approvals of --ask); piped, no one can.
    if (isTerminal(io.stdin) && isTerminal(io.stdout) && inputText !== "-") {
      await attachAskPort(
        run,
        createTerminalAskPort({ input: io.stdin, output: io.stdout }),
        { id: "terminal", label: "this terminal" },
        args.askTiers,
      );
    }
    const onProgress = progressOnStderr(io.stderr, toolName);
    const result = await run.call(toolName, input, onProgress === undefined ? {} : { onProgress });
    const code = result.isError === true ? EXIT_CODES.toolError : EXIT_CODES.ok;
    try {
      if (format === "json") await writeLine(io.stdout, JSON.stringify(result, null, 2));
      else await printResult(result, io);
    } catch (error) {
      // The reader closed stdout (`runbound call … | head -1`): the tool has already done its work,
      // so the exit code still says how it went; nothing is printed about the unread answer.
      if (!isClosedOutputError(error)) throw error;
    }
    return code;
  } finally {
    await run.close();
  }
}
