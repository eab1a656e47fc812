import { isTier, type Tier } from "@runbound/tool-kit";
import { UsageError } from "./usage-error.js";

/**
 * The environment variable a roster sets for its workers (`RUNBOUND_ASK`): the tiers whose calls the
 * approval policy of the run that spawned the worker asks about, comma-separated (`write,exec`), or
 * `none`. A runbound started as a worker applies it in its own run, so a worker is never allowed more
 * than its caller (vibe_spawn is a read tool that nobody approves).
 */
export const WORKER_ASK_VARIABLE = "RUNBOUND_ASK";

/** The value that says the caller's policy asks about nothing (an empty value is refused instead). */
const NOTHING_ASKED = "none";

function refuse(value: string, problem: string): never {
  throw new UsageError(
    `The environment variable ${WORKER_ASK_VARIABLE} is ${value === "" ? "empty" : `\`${value}\``}: ${problem}. Set it to a comma-separated list of read, write, exec (as in ${WORKER_ASK_VARIABLE}=write,exec) or to ${NOTHING_ASKED}, or unset it.`,
  );
}

/**
 * The tiers `RUNBOUND_ASK` names; none when it is unset or `none`. Anything else that is not a list
 * of tiers is refused, an empty value included: a value a wrapper mangled must not quietly mean that
 * nothing needs approval.
 *
 * @throws UsageError naming the value and the way to fix it.
 */
export function resolveWorkerAskTiers(environment: NodeJS.ProcessEnv): Tier[] {
  const value = environment[WORKER_ASK_VARIABLE];
  if (value === undefined || value.trim() === NOTHING_ASKED) return [];
  const items = value.split(",").map((item) => item.trim());
  if (items.some((item) => item === ""))
    refuse(value, value.trim() === "" ? "no tier is named" : "it has an empty item");
  if (items.includes(NOTHING_ASKED)) refuse(value, `\`${NOTHING_ASKED}\` cannot be combined with tiers`);
  const notTier = items.find((item) => !isTier(item));
  if (notTier !== undefined) refuse(value, `\`${notTier}\` is not a tier`);
  return [...new Set(items as Tier[])];
}
