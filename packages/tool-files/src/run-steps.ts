import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/**
 * CPU-bound work written as a generator that `yield`s between bounded steps, so the same code runs
 * either straight through or in slices that give the event loop its turn (DESIGN §5: nothing may
 * hang a run, CPU-bound work included; a call's budget and cancellation work only if it yields).
 */
export type Steps<Result> = Generator<void, Result, void>;

/** How long one slice of work may hold the event loop. */
const sliceMilliseconds = 10;

/** Run `steps` to the end without pausing. */
export function runSteps<Result>(steps: Steps<Result>): Result {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * Run `steps`, giving the event loop its turn about every 10 ms of work.
 *
 * @throws the signal's reason (the host aborts with a ToolError saying why) once `signal` aborts.
 */
export async function runStepsYielding<Result>(steps: Steps<Result>, signal?: AbortSignal): Promise<Result> {
  signal?.throwIfAborted();
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    if (performance.now() - sliceStart >= sliceMilliseconds) {
      await yieldToEventLoop();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
}
