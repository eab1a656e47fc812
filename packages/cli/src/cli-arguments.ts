import { parseArgs } from "node:util";
import { MAIN_CALLER, PLAN_CALLER } from "@runbound/runner-adapter";
import { isTier, type CallerInfo, type Tier } from "@runbound/tool-kit";
import { UsageError } from "./usage-error.js";

/** The commands of `runbound`. */
export const COMMANDS = ["status", "tools", "call", "session", "mcp"] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Parsed command line. */
export interface CliArguments {
  command: CommandName | undefined;
  positionals: string[];
  workdir: string;
  plugins: string[];
  caller: CallerInfo;
  /** Tiers whose calls need approval (`--ask`). */
  askTiers: Tier[];
  format: string | undefined;
  help: boolean;
  version: boolean;
}

const callers: Record<string, CallerInfo> = { main: MAIN_CALLER, plan: PLAN_CALLER };

/** Parse `argv` (without `node` and the script). Throws {@link UsageError} naming the bad option. */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        workdir: { type: "string", short: "C" },
        plugin: { type: "string", multiple: true },
        caller: { type: "string" },
        ask: { type: "string" },
        format: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)} Run \`runbound --help\` for the options.`);
  }
  const [command, ...positionals] = parsed.positionals;
  if (command !== undefined && !(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`Unknown command \`${command}\`. Commands: ${COMMANDS.join(", ")}.`);
  }
  const callerName = parsed.values.caller ?? "main";
  const caller = callers[callerName];
  if (caller === undefined) throw new UsageError(`Unknown caller \`${callerName}\`. Use --caller main or --caller plan.`);
  const askTiers = (parsed.values.ask ?? "").split(",").map((tier) => tier.trim()).filter((tier) => tier.length > 0);
  const badTier = askTiers.find((tier) => !isTier(tier));
  if (badTier !== undefined) throw new UsageError(`Unknown tier \`${badTier}\` in --ask. Use a comma-separated list of read, write, exec, e.g. --ask write,exec.`);
  return {
    command: command as CommandName | undefined,
    positionals,
    workdir: parsed.values.workdir ?? process.cwd(),
    plugins: parsed.values.plugin ?? [],
    caller,
    askTiers: askTiers as Tier[],
    format: parsed.values.format,
    help: parsed.values.help ?? false,
    version: parsed.values.version ?? false,
  };
}
