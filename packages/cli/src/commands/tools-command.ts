import { exportToolSchemas, type ToolListFormat } from "@runbound/runner-adapter";
import type { CliArguments } from "../cli-arguments.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openRun } from "../open-run.js";
import { UsageError } from "../usage-error.js";

const formats = ["text", "json", "openai", "anthropic"] as const;

/** `runbound tools`: the tools the caller sees, as text or in a provider's request format. */
export async function toolsCommand(args: CliArguments, io: CliIo): Promise<number> {
  const format = args.format ?? "text";
  if (!(formats as readonly string[]).includes(format))
    throw new UsageError(`Unknown format \`${format}\` for tools. Use one of: ${formats.join(", ")}.`);
  const { run } = await openRun(args);
  try {
    const tools = run.visibleTools(args.caller);
    if (format === "text") {
      // One line per tool: its first sentence; `--format json` has the whole description.
      const lines = tools.map(
        (tool) =>
          `${tool.name.padEnd(14)} ${tool.tier.padEnd(5)} ${/^.*?\.(?=\s|$)/.exec(tool.description)?.[0] ?? tool.description}`,
      );
      await writeLine(io.stdout, lines.join("\n"));
    } else {
      await writeLine(io.stdout, JSON.stringify(exportToolSchemas(tools, format as ToolListFormat), null, 2));
    }
    return 0;
  } finally {
    await run.close();
  }
}
