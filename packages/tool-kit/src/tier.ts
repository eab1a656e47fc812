/**
 * What a tool may do, and therefore who may even see it.
 * - `read`: no side effects.
 * - `write`: changes files.
 * - `exec`: starts or controls a process.
 */
export type Tier = "read" | "write" | "exec";

/** Every tier, from the least to the most capable. */
export const TIERS: readonly Tier[] = ["read", "write", "exec"];

/** Whether a caller whose ceiling is `ceiling` may see and call a tool of tier `tier`. */
export function tierAllows(ceiling: Tier, tier: Tier): boolean {
  return TIERS.indexOf(tier) <= TIERS.indexOf(ceiling);
}

/** The lower of two tiers: a worker gets the intersection of its caller's ceiling and its own. */
export function lowerTier(first: Tier, second: Tier): Tier {
  return tierAllows(first, second) ? second : first;
}

/** Whether `value` is one of the {@link TIERS}. */
export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}
