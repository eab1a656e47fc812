import { ToolError } from "@runbound/tool-kit";
import { parseCliArguments, type CommandName } from "./cli-arguments.js";
import { writeLine, type CliIo } from "./cli-io.js";
import { callCommand } from "./commands/call-command.js";
import { mcpCommand } from "./commands/mcp-command.js";
import { sessionCommand } from "./commands/session-command.js";
import { statusCommand } from "./commands/status-command.js";
import { toolsCommand } from "./commands/tools-command.js";
import { helpText } from "./help-text.js";
import { EXIT_CODES, UsageError } from "./usage-error.js";
import { CLI_VERSION } from "./version.js";
import type { CliArguments } from "./cli-arguments.js";

const commands: Record<CommandName, (args: CliArguments, io: CliIo) => Promise<number>> = {
  status: statusCommand,
  tools: toolsCommand,
  call: callCommand,
  session: sessionCommand,
  mcp: mcpCommand,
};

/** Run `runbound` with `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const args = parseCliArguments(argv);
    if (args.version) {
      await writeLine(io.stdout, CLI_VERSION);
      return EXIT_CODES.ok;
    }
    if (args.help || args.command === undefined) {
      await writeLine(args.help ? io.stdout : io.stderr, helpText(args.command));
      return args.help ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    return await commands[args.command](args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      await writeLine(io.stderr, `runbound: ${error.message}`);
      return EXIT_CODES.usage;
    }
    if (ToolError.isInstance(error)) {
      await writeLine(io.stderr, `runbound: ${error.message}`);
      return EXIT_CODES.setup;
    }
    await writeLine(io.stderr, `runbound: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT_CODES.setup;
  }
}
