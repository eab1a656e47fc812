/** A signal that also aborts at a deadline, and the way to release its timer. */
export interface DeadlineSignal {
  signal: AbortSignal;
  /** Clear the timer and stop following the outer signal. */
  dispose(): void;
}

/** What a {@link signalWithDeadline} aborts with; by default a `TimeoutError` and the outer signal's own reason. */
export interface DeadlineReasons {
  /** The reason when the deadline passes. */
  timeout?: () => unknown;
  /** The reason when the outer signal aborts, given the outer reason. */
  aborted?: (outerReason: unknown) => unknown;
}

// Node fires a timer longer than this at once; longer deadlines are cut to it (about 24.8 days).
const longestTimerMs = 2 ** 31 - 1;

/**
 * `signal`, also aborted `ms` from now. Built from a controller and a timer held here rather than
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 a garbage collection can drop the
 * timeout source of such a composite, and its deadline then never comes — a wait without end.
 */
export function signalWithDeadline(signal: AbortSignal, ms: number, reasons: DeadlineReasons = {}): DeadlineSignal {
  const controller = new AbortController();
  const follow = (): void =>
    controller.abort(reasons.aborted === undefined ? signal.reason : reasons.aborted(signal.reason));
  const timer = setTimeout(
    () =>
      controller.abort(
        reasons.timeout === undefined
          ? new DOMException(`The deadline of ${ms} ms passed.`, "TimeoutError")
          : reasons.timeout(),
      ),
    Math.min(ms, longestTimerMs),
  );
  if (signal.aborted) follow();
  else signal.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      signal.removeEventListener("abort", follow);
    },
  };
}

/** Run `work` with {@link signalWithDeadline}, releasing the timer when it settles. */
export async function withDeadline<T>(
  signal: AbortSignal,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = signalWithDeadline(signal, ms);
  try {
    return await work(deadline.signal);
  } finally {
    deadline.dispose();
  }
}
