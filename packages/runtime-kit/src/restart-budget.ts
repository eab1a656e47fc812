/** Settings of {@link createRestartBudget}. */
export interface RestartBudgetSettings {
  /** Crashes within `windowMs` that make the process broken; default 3. */
  limit?: number;
  /** The sliding window, in milliseconds; default 5 minutes. */
  windowMs?: number;
  /** The clock, in milliseconds; replace it only in tests. */
  now?: () => number;
}

/** Counts crashes in a sliding window and says when a supervised process should stop being restarted. */
export interface RestartBudget {
  /** Record a crash now. @returns true while another restart is allowed, false once the budget is spent. */
  recordCrash(): boolean;
  /** Crashes inside the window right now. */
  crashes(): number;
  /** Whether the budget is spent (a restart would exceed it). */
  exhausted(): boolean;
  /** Forget every crash (an operator asked for a fresh start). */
  reset(): void;
  /** The limit and the window, for messages such as "3 crashes in 5 minutes". */
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * A restart budget: `limit` crashes within `windowMs` and the process is broken (VS Code stops after
 * 5 crashes in 3 minutes; we default to 3 in 5 minutes, as the language-server issue asks).
 */
export function createRestartBudget(settings: RestartBudgetSettings = {}): RestartBudget {
  const limit = settings.limit ?? 3;
  const windowMs = settings.windowMs ?? 5 * 60_000;
  const now = settings.now ?? Date.now;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`Restart limit \`${limit}\` is not valid; give a whole number of at least 1.`);
  if (!(windowMs > 0))
    throw new RangeError(`Restart window \`${windowMs}\` ms is not valid; give a positive number of milliseconds.`);
  let times: number[] = [];
  const prune = (): void => {
    const oldest = now() - windowMs;
    times = times.filter((time) => time > oldest);
  };
  return {
    limit,
    windowMs,
    recordCrash() {
      prune();
      times.push(now());
      return times.length < limit;
    },
    crashes() {
      prune();
      return times.length;
    },
    exhausted() {
      prune();
      return times.length >= limit;
    },
    reset() {
      times = [];
    },
  };
}
