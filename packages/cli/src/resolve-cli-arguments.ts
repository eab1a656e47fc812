import { MAIN_CALLER, PLAN_CALLER } from "@runbound/runner-adapter";
import { isTier, type CallerInfo, type Tier } from "@runbound/tool-kit";
import type { CliArguments, CommandLine } from "./cli-arguments.js";
import { UsageError } from "./usage-error.js";

const callers: Record<string, CallerInfo> = { main: MAIN_CALLER, plan: PLAN_CALLER };

/**
 * Give the command line its meaning: the caller named by `--caller` and the tiers of `--ask`. Kept
 * apart from parsing because it loads the host package, which `--help` does not need.
 */
export function resolveCliArguments(commandLine: CommandLine): CliArguments {
  const { callerName, ask, ...rest } = commandLine;
  const caller = Object.hasOwn(callers, callerName) ? callers[callerName] : undefined;
  if (caller === undefined) throw new UsageError(`Unknown caller \`${callerName}\`. Use --caller main or --caller plan.`);
  const askTiers = (ask ?? "").split(",").map((tier) => tier.trim()).filter((tier) => tier.length > 0);
  const badTier = askTiers.find((tier) => !isTier(tier));
  if (badTier !== undefined) throw new UsageError(`Unknown tier \`${badTier}\` in --ask. Use a comma-separated list of read, write, exec, as in --ask write,exec.`);
  return { ...rest, caller, askTiers: askTiers as Tier[] };
}
