import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResult } from "@runbound/tool-kit";
import type { CliArguments } from "../cli-arguments.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openRun } from "../open-run.js";
import { parseJsonInput } from "../parse-json-input.js";
import { EXIT_CODES, UsageError } from "../usage-error.js";

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

const extensions: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg" };

async function printResult(result: ToolResult, io: CliIo): Promise<void> {
  let imageDirectory: string | undefined;
  let imageCount = 0;
  for (const part of result.content) {
    if (part.type === "text") {
      await writeLine(io.stdout, part.text);
      continue;
    }
    imageDirectory ??= await mkdtemp(join(tmpdir(), "runbound-images-"));
    imageCount += 1;
    const path = join(imageDirectory, `image-${imageCount}.${extensions[part.mimeType] ?? "bin"}`);
    await writeFile(path, Buffer.from(part.data, "base64"));
    await writeLine(io.stdout, `[image ${part.mimeType} saved to ${path}]`);
  }
}

/** `runbound call <tool> '<json>'`: one call; the result's text on stdout; exit 1 when it is an error. */
export async function callCommand(args: CliArguments, io: CliIo): Promise<number> {
  const [toolName, inputText, ...extra] = args.positionals;
  if (toolName === undefined) throw new UsageError("Missing the tool name. Usage: runbound call <tool> '<json>' (see `runbound tools`).");
  if (extra.length > 0) throw new UsageError(`Unexpected argument \`${extra[0]}\`. Pass the input as one JSON argument, quoted for your shell.`);
  const format = args.format ?? "text";
  if (format !== "text" && format !== "json") throw new UsageError(`Unknown format \`${format}\` for call. Use --format text or --format json.`);
  const input = inputText === undefined ? {} : parseJsonInput(inputText === "-" ? await readAll(io.stdin) : inputText, inputText === "-" ? "The input on stdin" : "The input argument");
  const { run } = await openRun(args);
  try {
    const result = await run.call(toolName, input);
    if (format === "json") await writeLine(io.stdout, JSON.stringify(result, null, 2));
    else await printResult(result, io);
    return result.isError === true ? EXIT_CODES.toolError : EXIT_CODES.ok;
  } finally {
    await run.close();
  }
}
