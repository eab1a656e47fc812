import { parseCommandLine, type CliArguments, type CommandName } from "./cli-arguments.js";
import { writeLine, type CliIo } from "./cli-io.js";
import { isClosedOutputError, tolerateClosedOutput } from "./closed-output.js";
import { helpText } from "./help-text.js";
import { EXIT_CODES, UsageError } from "./usage-error.js";
import { CLI_VERSION } from "./version.js";

type Command = (args: CliArguments, io: CliIo) => Promise<number>;

// Each command is imported only when it runs: `--help` and `--version` load no tool package, no host
// and no MCP SDK (issue 12: the help took ten times node's own start-up).
const commands: Record<CommandName, () => Promise<Command>> = {
  status: async () => (await import("./commands/status-command.js")).statusCommand,
  tools: async () => (await import("./commands/tools-command.js")).toolsCommand,
  call: async () => (await import("./commands/call-command.js")).callCommand,
  session: async () => (await import("./commands/session-command.js")).sessionCommand,
  mcp: async () => (await import("./commands/mcp-command.js")).mcpCommand,
};

/** Run `runbound` with `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  tolerateClosedOutput(io.stdout, io.stderr);
  try {
    const commandLine = parseCommandLine(argv);
    if (commandLine.version) {
      await writeLine(io.stdout, CLI_VERSION);
      return EXIT_CODES.ok;
    }
    if (commandLine.help || commandLine.command === undefined) {
      await writeLine(commandLine.help ? io.stdout : io.stderr, helpText(commandLine.command));
      return commandLine.help ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    const [{ resolveCliArguments }, command] = await Promise.all([
      import("./resolve-cli-arguments.js"),
      commands[commandLine.command](),
    ]);
    return await command(resolveCliArguments(commandLine), io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

/** Write a failure to stderr; when stderr is closed too, the exit code is all that is left to say it. */
async function tell(io: CliIo, line: string): Promise<void> {
  await writeLine(io.stderr, line).catch((error: unknown) => {
    if (!isClosedOutputError(error)) throw error;
  });
}

async function reportFailure(error: unknown, io: CliIo): Promise<number> {
  // The reader left (`runbound tools | head -1`): the command did its work, only the printout went
  // unread, which is the reader's choice, not a failure (the README's exit codes say so).
  if (isClosedOutputError(error)) return EXIT_CODES.ok;
  if (error instanceof UsageError) {
    await tell(io, `runbound: ${error.message}`);
    return EXIT_CODES.usage;
  }
  const { ToolError } = await import("@runbound/tool-kit");
  if (ToolError.isInstance(error)) {
    await tell(io, `runbound: ${error.message}`);
    return EXIT_CODES.setup;
  }
  await tell(
    io,
    `runbound: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return EXIT_CODES.setup;
}
