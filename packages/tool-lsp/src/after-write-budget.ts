/** How long diagnostics on write may wait. */
export interface AfterWriteBudget {
  /** How long a server that is not running yet gets to start and load the project. */
  coldWaitMs: number;
  /** How long a ready server gets to answer for the written files (pull, or publish) after the sync. */
  ceilingMs: number;
}

/** A warm server gets 2.5 s; one that must start first gets 10 s more. */
export const DEFAULT_AFTER_WRITE_BUDGET: AfterWriteBudget = Object.freeze({ coldWaitMs: 10_000, ceilingMs: 2_500 });
