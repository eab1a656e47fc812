/** A signal that also aborts at a deadline, and the way to release its timer. */
export interface DeadlineSignal {
  signal: AbortSignal;
  /** Clear the timer and stop following the outer signal. */
  dispose(): void;
}

/**
 * `signal`, also aborted `ms` from now. Built from a controller and a timer held here rather than
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 a garbage collection can drop the
 * timeout source of such a composite, and its deadline then never comes — a wait without end.
 */
export function signalWithDeadline(signal: AbortSignal, ms: number): DeadlineSignal {
  const controller = new AbortController();
  const follow = (): void => controller.abort(signal.reason);
  const timer = setTimeout(() => controller.abort(new DOMException(`The deadline of ${ms} ms passed.`, "TimeoutError")), ms);
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
export async function withDeadline<T>(signal: AbortSignal, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = signalWithDeadline(signal, ms);
  try {
    return await work(deadline.signal);
  } finally {
    deadline.dispose();
  }
}
