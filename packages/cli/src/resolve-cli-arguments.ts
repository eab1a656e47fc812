import { resolve as resolvePath } from "node:path";
import { MAIN_CALLER, PLAN_CALLER } from "@runbound/runner-adapter";
import { isTier, lowerTier, type CallerInfo, type Tier } from "@runbound/tool-kit";
import {
  EVAL_PYTHON_CHOICES,
  SANDBOX_MODES,
  type CliArguments,
  type CommandLine,
  type EvalPythonChoice,
  type SandboxChoice,
  type SandboxMode,
  type VibeWorkers,
} from "./cli-arguments.js";
import { resolveProjectTrust } from "./project-trust.js";
import { UsageError } from "./usage-error.js";
import { resolveWorkerAskTiers } from "./worker-ask-tiers.js";

const callers: Record<string, CallerInfo> = { main: MAIN_CALLER, plan: PLAN_CALLER };

/**
 * The environment variable a roster sets for its workers (`RUNBOUND_CEILING`): a runbound started as
 * a background worker offers no tool above the ceiling of the caller that spawned it.
 */
export const WORKER_CEILING_VARIABLE = "RUNBOUND_CEILING";

function resolveCaller(callerName: string, environment: NodeJS.ProcessEnv): CallerInfo {
  const caller = Object.hasOwn(callers, callerName) ? callers[callerName] : undefined;
  if (caller === undefined)
    throw new UsageError(`Unknown caller \`${callerName}\`. Use --caller main or --caller plan.`);
  const inherited = environment[WORKER_CEILING_VARIABLE];
  if (inherited === undefined) return caller;
  // An empty value is refused like any other non-tier: read as unset it would lift the ceiling to exec.
  if (!isTier(inherited)) {
    const shown = inherited === "" ? "empty" : `\`${inherited}\``;
    throw new UsageError(
      `The environment variable ${WORKER_CEILING_VARIABLE} is ${shown}, which is not a tier. Set it to read, write or exec, or unset it.`,
    );
  }
  const ceiling = lowerTier(caller.ceiling, inherited);
  return ceiling === caller.ceiling ? caller : { ...caller, ceiling };
}

function checkVariableNames(option: string, names: readonly string[]): void {
  const bad = names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (bad !== undefined)
    throw new UsageError(
      `\`${bad}\` in ${option} is not an environment variable name. Give one name per option, as in ${option} HF_TOKEN ${option} PIP_INDEX_URL.`,
    );
}

function resolveSandbox(mode: string | undefined, options: Omit<SandboxChoice, "mode">): SandboxChoice {
  if (mode !== undefined && !(SANDBOX_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(
      `Unknown choice \`${mode}\` for --sandbox. Use ${SANDBOX_MODES.map((choice) => `--sandbox ${choice}`).join(", ")}.`,
    );
  }
  checkVariableNames("--pass-env", options.passEnv);
  checkVariableNames("--worker-env", options.workerEnv);
  return {
    mode: (mode as SandboxMode | undefined) ?? "auto",
    passEnv: [...new Set(options.passEnv)],
    allowNetwork: options.allowNetwork,
    sandboxServers: options.sandboxServers,
    workerEnv: [...new Set(options.workerEnv)],
    // Paths typed on the command line are relative to the current directory, like --workdir.
    workerRead: options.workerRead.map((path) => resolvePath(path)),
  };
}

function resolveEvalPython(value: string | undefined): EvalPythonChoice | undefined {
  if (value === undefined) return undefined;
  if (!(EVAL_PYTHON_CHOICES as readonly string[]).includes(value)) {
    throw new UsageError(
      `Unknown choice \`${value}\` for --eval-python. Use ${EVAL_PYTHON_CHOICES.map((choice) => `--eval-python ${choice}`).join(", ")}.`,
    );
  }
  return value as EvalPythonChoice;
}

/** The largest `--parse-cache-mib`: 64 GiB, more than any machine this runs on keeps for parsed trees. */
export const MAX_PARSE_CACHE_MIB = 65_536;

function resolveParseCacheBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const mebibytes = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(mebibytes <= MAX_PARSE_CACHE_MIB)) {
    throw new UsageError(
      `\`--parse-cache-mib\` is \`${value}\`, not a whole number of mebibytes from 0 to ${MAX_PARSE_CACHE_MIB}. Give one, as in --parse-cache-mib 512 (0 turns the parse cache off).`,
    );
  }
  return mebibytes * 1024 * 1024;
}

function resolveVibe({
  vibe,
  workerFast,
  workerGood,
}: Pick<CommandLine, "vibe" | "workerFast" | "workerGood">): VibeWorkers | undefined {
  if (!vibe) {
    const given = workerFast !== undefined ? "--worker-fast" : workerGood !== undefined ? "--worker-good" : undefined;
    if (given !== undefined)
      throw new UsageError(
        `\`${given}\` only applies in vibe mode. Add --vibe to let the run spawn background workers, or drop ${given}.`,
      );
    return undefined;
  }
  if (workerFast === undefined && workerGood === undefined) {
    throw new UsageError(
      "`--vibe` needs the command a background worker runs: add --worker-fast <command> and/or --worker-good <command>, as in --worker-fast 'runbound session'.",
    );
  }
  for (const [option, line] of [
    ["--worker-fast", workerFast],
    ["--worker-good", workerGood],
  ] as const) {
    if (line !== undefined && line.trim() === "")
      throw new UsageError(
        `\`${option}\` is empty. Give it the command line a worker runs, as in ${option} 'runbound session'.`,
      );
  }
  return { fast: workerFast, good: workerGood };
}

/**
 * Give the command line its meaning: the caller named by `--caller` (capped by an inherited worker
 * ceiling), the tiers of `--ask` and those a worker inherits in `RUNBOUND_ASK`, the eval kernel, the parse cache's budget, vibe mode
 * and whether the project's own programs are trusted. Kept apart from parsing because it
 * loads the host package, which `--help` does not need.
 */
export function resolveCliArguments(
  commandLine: CommandLine,
  environment: NodeJS.ProcessEnv = process.env,
): CliArguments {
  const {
    callerName,
    ask,
    evalPython,
    parseCacheMib,
    vibe,
    workerFast,
    workerGood,
    trustProject,
    noTrustProject,
    sandbox,
    passEnv,
    allowNetwork,
    sandboxServers,
    workerEnv,
    workerRead,
    ...rest
  } = commandLine;
  const caller = resolveCaller(callerName, environment);
  const askTiers = (ask ?? "")
    .split(",")
    .map((tier) => tier.trim())
    .filter((tier) => tier.length > 0);
  const badTier = askTiers.find((tier) => !isTier(tier));
  if (badTier !== undefined)
    throw new UsageError(
      `Unknown tier \`${badTier}\` in --ask. Use a comma-separated list of read, write, exec, as in --ask write,exec.`,
    );
  const workerAskTiers = resolveWorkerAskTiers(environment);
  return {
    ...rest,
    caller,
    askTiers: askTiers as Tier[],
    workerAskTiers,
    evalPython: resolveEvalPython(evalPython),
    parseCacheBytes: resolveParseCacheBytes(parseCacheMib),
    vibe: resolveVibe({ vibe, workerFast, workerGood }),
    projectTrust: resolveProjectTrust(trustProject, noTrustProject, caller, environment),
    sandbox: resolveSandbox(sandbox, { passEnv, allowNetwork, sandboxServers, workerEnv, workerRead }),
  };
}
