import type { ProgressUpdate } from "@runbound/tool-kit";

/** When a running call's heartbeat speaks. */
export interface HeartbeatTiming {
  /** Silence before the first notice of a call that reported nothing yet; default 2 000 ms. */
  firstAfterMs: number;
  /** The longest silence between two notices after that; default 5 000 ms. */
  everyMs: number;
}

export const DEFAULT_HEARTBEAT: HeartbeatTiming = Object.freeze({ firstAfterMs: 2_000, everyMs: 5_000 });

/** One call's heartbeat: pass the tool's own notices through `report`, and `stop` when the call answered. */
export interface CallHeartbeat {
  report(update: ProgressUpdate): void;
  stop(): void;
}

function seconds(ms: number): string {
  return ms < 60_000
    ? `${Math.round(ms / 1_000)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

/**
 * Keep a long call audible: a client whose request timeout resets on progress (MCP's
 * `resetTimeoutOnProgress`) must not give up on a cell that computes for a minute in silence. After
 * `firstAfterMs` without a notice, and then whenever `everyMs` passed without one, it repeats what the
 * call last said it was doing (or that it is running), with the time elapsed, and its last numbers.
 */
export function startHeartbeat(
  send: (update: ProgressUpdate) => void,
  subject: string,
  timing: HeartbeatTiming = DEFAULT_HEARTBEAT,
): CallHeartbeat {
  const startedAt = Date.now();
  let last: ProgressUpdate | undefined;
  let lastSentAt = startedAt;
  const tickMs = Math.max(10, Math.min(1_000, timing.firstAfterMs, timing.everyMs) / 2);
  const timer = setInterval(() => {
    const now = Date.now();
    const quietFor = last === undefined && lastSentAt === startedAt ? timing.firstAfterMs : timing.everyMs;
    if (now - lastSentAt < quietFor) return;
    const doing = last?.message ?? `${subject} is running`;
    lastSentAt = now;
    send({ ...last, message: `${doing.replace(/[.\s]+$/, "")} (${seconds(now - startedAt)} so far)` });
  }, tickMs);
  timer.unref();
  return {
    report(update) {
      last = update;
      lastSentAt = Date.now();
      send(update);
    },
    stop: () => clearInterval(timer),
  };
}
