/** A budget of silence: it runs out only after `budgetMs` with no activity and no pending pause. */
export interface InactivityClock {
  /** Activity seen (an output): the budget starts again. */
  touch(): void;
  /** Something legitimately slow began (a bridge call); the clock stops until the matching `resume`. */
  pause(): void;
  /** The slow thing ended; the budget starts again from now. */
  resume(): void;
  /** No more expiry. */
  stop(): void;
}

/**
 * Start an inactivity clock that calls `onExpire` once, `budgetMs` after the last activity, unless a
 * pause is pending then. Pauses nest (two bridge calls at once need two resumes).
 */
export function startInactivityClock(budgetMs: number, onExpire: () => void): InactivityClock {
  let timer: NodeJS.Timeout | undefined;
  let pauses = 0;
  let stopped = false;
  const arm = () => {
    clearTimeout(timer);
    timer = undefined;
    if (stopped || pauses > 0) return;
    timer = setTimeout(() => {
      stopped = true;
      onExpire();
    }, budgetMs);
  };
  arm();
  return {
    touch: arm,
    pause() {
      pauses += 1;
      arm();
    },
    resume() {
      pauses = Math.max(0, pauses - 1);
      arm();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
