import { parseArgs } from "node:util";
import type { CallerInfo, Tier } from "@runbound/tool-kit";
import type { ProjectTrustChoice } from "./project-trust.js";
import { UsageError } from "./usage-error.js";

/** The commands of `runbound`. */
export const COMMANDS = ["status", "tools", "call", "session", "mcp"] as const;
export type CommandName = (typeof COMMANDS)[number];

/**
 * The command line as typed, checked for its shape (known options with their values, the number of
 * arguments) but not yet for meaning. Parsing it loads no package, so `--help` stays fast.
 */
export interface CommandLine {
  command: CommandName | undefined;
  positionals: string[];
  workdir: string;
  plugins: string[];
  /** `--caller` as given (default `main`). */
  callerName: string;
  /** `--ask` as given: a comma-separated list of tiers. */
  ask: string | undefined;
  format: string | undefined;
  /** `--eval-python` as given: which Python kernel eval gets. */
  evalPython: string | undefined;
  /** `--parse-cache-mib` as given: the ast-grep parser's memory for parsed trees. */
  parseCacheMib: string | undefined;
  /** `--vibe`: background workers may be spawned. */
  vibe: boolean;
  /** `--trust-project` / `--no-trust-project`: whether the project's own programs may run (default by caller). */
  trustProject: boolean;
  noTrustProject: boolean;
  /** `--worker-fast` / `--worker-good`: the command lines of the two worker tiers. */
  workerFast: string | undefined;
  workerGood: string | undefined;
  /** `--sandbox` as given: auto, required or off. */
  sandbox: string | undefined;
  /** `--pass-env NAME`, repeatable: host variables a sandboxed program gets besides the allowlist. */
  passEnv: string[];
  /** `--allow-network`: sandboxed kernels and debuggees may use the network. */
  allowNetwork: boolean;
  /** `--sandbox-servers`: language servers and project checkers run in the sandbox too. */
  sandboxServers: boolean;
  /** `--worker-env NAME`, repeatable: host variables a sandboxed vibe worker gets (its model's API key). */
  workerEnv: string[];
  /** `--worker-read PATH`, repeatable: host paths a sandboxed vibe worker may read (its agent's installation). */
  workerRead: string[];
  help: boolean;
  version: boolean;
}

/** `--sandbox` values. */
export const SANDBOX_MODES = ["auto", "required", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** Where exec resources' programs run, as the command line asks. */
export interface SandboxChoice {
  /** `auto` (default): a sandbox where one works here, else the host, saying why; `required`: a sandbox or no run; `off`: the host. */
  mode: SandboxMode;
  /** Host variables passed into the sandbox besides the allowlist. */
  passEnv: string[];
  /** Whether sandboxed kernels may use the network. */
  allowNetwork: boolean;
  /** Whether language servers and project checkers run in the sandbox too (opt-in). */
  sandboxServers: boolean;
  /** Host variables passed to sandboxed vibe workers besides the allowlist and `passEnv`. */
  workerEnv: string[];
  /** Host paths sandboxed vibe workers may read (absolute). */
  workerRead: string[];
}

/** `--eval-python` values. */
export const EVAL_PYTHON_CHOICES = ["native", "pyodide", "auto"] as const;
export type EvalPythonChoice = (typeof EVAL_PYTHON_CHOICES)[number];

/** The command lines of vibe mode's two worker tiers; at least one is set. */
export interface VibeWorkers {
  fast: string | undefined;
  good: string | undefined;
}

/** What a command gets: the command line with its caller and approval tiers resolved. */
export interface CliArguments {
  command: CommandName | undefined;
  positionals: string[];
  workdir: string;
  plugins: string[];
  caller: CallerInfo;
  /** Tiers whose calls need approval (`--ask`). */
  askTiers: Tier[];
  /**
   * Tiers the run that started this runbound as a worker asks about (`RUNBOUND_ASK`): denied here,
   * since no operator of that caller can be reached from a worker, and handed on to this run's workers.
   */
  workerAskTiers: Tier[];
  format: string | undefined;
  /** Which Python kernel eval gets (`--eval-python`); undefined = the factory's `auto`. */
  evalPython: EvalPythonChoice | undefined;
  /** The ast-grep parse cache's budget in bytes (`--parse-cache-mib`); undefined = the parser's default, 0 = off. */
  parseCacheBytes: number | undefined;
  /** The worker commands when vibe mode is on (`--vibe`); undefined when it is off. */
  vibe: VibeWorkers | undefined;
  /** Whether programs inside the workdir may run (language servers, project checkers), and how to change it. */
  projectTrust: ProjectTrustChoice;
  /** `--sandbox`, `--pass-env`, `--allow-network`. */
  sandbox: SandboxChoice;
  help: boolean;
  version: boolean;
}

const options = {
  workdir: { type: "string", short: "C" },
  plugin: { type: "string", multiple: true },
  caller: { type: "string" },
  ask: { type: "string" },
  format: { type: "string" },
  "eval-python": { type: "string" },
  "parse-cache-mib": { type: "string" },
  vibe: { type: "boolean" },
  "trust-project": { type: "boolean" },
  "no-trust-project": { type: "boolean" },
  "worker-fast": { type: "string" },
  "worker-good": { type: "string" },
  sandbox: { type: "string" },
  "pass-env": { type: "string", multiple: true },
  "allow-network": { type: "boolean" },
  "sandbox-servers": { type: "boolean" },
  "worker-env": { type: "string", multiple: true },
  "worker-read": { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

type OptionName = keyof typeof options;

const valueExamples: Record<OptionName, string> = {
  workdir: "--workdir path/to/project",
  plugin: "--plugin ./my-plugin.js",
  caller: "--caller plan",
  ask: "--ask write,exec",
  format: "--format json",
  "eval-python": "--eval-python pyodide",
  "parse-cache-mib": "--parse-cache-mib 512",
  vibe: "--vibe",
  "trust-project": "--trust-project",
  "no-trust-project": "--no-trust-project",
  "worker-fast": "--worker-fast 'runbound session'",
  "worker-good": "--worker-good 'my-agent --model large'",
  sandbox: "--sandbox required",
  "pass-env": "--pass-env HF_TOKEN",
  "allow-network": "--allow-network",
  "sandbox-servers": "--sandbox-servers",
  "worker-env": "--worker-env ANTHROPIC_API_KEY",
  "worker-read": "--worker-read ~/.local/share/my-agent",
  help: "--help",
  version: "--version",
};

/** The arguments each command takes after its name; any more are refused, naming them. */
const commandArguments: Record<CommandName, { count: number; hint: string }> = {
  status: { count: 0, hint: "`runbound status` takes no arguments. Run `runbound status --help` for its options." },
  tools: { count: 0, hint: "`runbound tools` takes no arguments. Run `runbound tools --help` for its options." },
  call: {
    count: 2,
    hint: '`runbound call` takes a tool name and one JSON input. Quote the JSON for your shell so that it stays one argument, as in \'{"path":"README.md"}\'.',
  },
  session: {
    count: 0,
    hint: "`runbound session` takes no arguments: it reads its requests on stdin. Run `runbound session --help` for the format.",
  },
  mcp: { count: 0, hint: "`runbound mcp` takes no arguments. Run `runbound mcp --help` for its options." },
};

function isOptionName(name: string): name is OptionName {
  return Object.hasOwn(options, name);
}

// Node's strict mode words its own errors (run-on, with an unclosed quote), so the parser runs
// lenient and the same checks are made here, each with a sentence of ours.
function checkOptionToken(token: {
  name: string;
  rawName: string;
  value?: string | undefined;
  inlineValue?: boolean | undefined;
}): void {
  if (!isOptionName(token.name)) {
    throw new UsageError(
      `Unknown option \`${token.rawName}\`. Run \`runbound --help\` for the options; an argument that starts with \`-\` goes after \`--\`.`,
    );
  }
  const example = valueExamples[token.name];
  if (options[token.name].type === "boolean") {
    if (token.value !== undefined)
      throw new UsageError(
        `Option \`${token.rawName}\` takes no value, but got \`${token.value}\`. Write \`${example}\` alone.`,
      );
    return;
  }
  if (token.value === undefined)
    throw new UsageError(`Option \`${token.rawName}\` needs a value, as in \`${example}\`.`);
  if (token.inlineValue !== true && token.value.length > 1 && token.value.startsWith("-")) {
    throw new UsageError(
      `Option \`${token.rawName}\` is followed by \`${token.value}\`, which looks like an option, not its value. Give it a value, as in \`${example}\`, or write \`${token.rawName}=${token.value}\` if that is the value.`,
    );
  }
}

function checkArgumentCount(command: CommandName, positionals: readonly string[]): void {
  const { count, hint } = commandArguments[command];
  const unexpected = positionals.slice(count);
  if (unexpected.length === 0) return;
  const named = unexpected.map((argument) => `\`${argument}\``).join(", ");
  throw new UsageError(`Unexpected ${unexpected.length === 1 ? "argument" : "arguments"} ${named}. ${hint}`);
}

/** Parse `argv` (without `node` and the script). Throws {@link UsageError} naming the bad option or argument. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const { values, positionals, tokens } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: false,
    tokens: true,
    options,
  });
  for (const token of tokens) if (token.kind === "option") checkOptionToken(token);
  const [command, ...commandPositionals] = positionals;
  if (command !== undefined && !(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`Unknown command \`${command}\`. Commands: ${COMMANDS.join(", ")}.`);
  }
  const help = values.help === true;
  const version = values.version === true;
  // Help and the version answer whatever else is on the line, as `git <command> … --help` does.
  if (command !== undefined && !help && !version) checkArgumentCount(command as CommandName, commandPositionals);
  // The checks above made every string option a string and every boolean a boolean.
  return {
    command: command as CommandName | undefined,
    positionals: commandPositionals,
    workdir: (values.workdir as string | undefined) ?? process.cwd(),
    plugins: (values.plugin as string[] | undefined) ?? [],
    callerName: (values.caller as string | undefined) ?? "main",
    ask: values.ask as string | undefined,
    format: values.format as string | undefined,
    evalPython: values["eval-python"] as string | undefined,
    parseCacheMib: values["parse-cache-mib"] as string | undefined,
    vibe: values.vibe === true,
    trustProject: values["trust-project"] === true,
    noTrustProject: values["no-trust-project"] === true,
    workerFast: values["worker-fast"] as string | undefined,
    workerGood: values["worker-good"] as string | undefined,
    sandbox: values.sandbox as string | undefined,
    passEnv: (values["pass-env"] as string[] | undefined) ?? [],
    allowNetwork: values["allow-network"] === true,
    sandboxServers: values["sandbox-servers"] === true,
    workerEnv: (values["worker-env"] as string[] | undefined) ?? [],
    workerRead: (values["worker-read"] as string[] | undefined) ?? [],
    help,
    version,
  };
}
