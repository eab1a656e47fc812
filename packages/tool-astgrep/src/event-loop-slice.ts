import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { throwIfAborted } from "./abort-error.js";

/** Main-thread work between two yields to the event loop, in milliseconds. */
export const sliceMs = 10;

/**
 * Cuts a long loop on the main thread into slices of about {@link sliceMs}: `pause()` yields to the
 * event loop (timers, I/O, an abort) once the slice is used up, then throws the signal's abort error
 * if it aborted. Time, not a count of items, decides: one file or directory may cost a thousand times
 * another.
 */
export class EventLoopSlicer {
  private started = performance.now();

  constructor(private readonly signal: AbortSignal | undefined) {}

  async pause(): Promise<void> {
    if (performance.now() - this.started < sliceMs) return;
    await yieldToEventLoop();
    throwIfAborted(this.signal);
    this.started = performance.now();
  }
}
