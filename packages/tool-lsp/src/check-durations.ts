/** The most a write waits for one file's check, however slow it was before (a cold or huge file). */
export const MAX_CHECK_WAIT_MS = 10_000;
/** How much longer than its last check a file is given: the same check under load takes longer. */
const headroom = 2;

/**
 * How long each file's last check took, per server, so the next write waits as long as this file
 * needs on this server — within the base ceiling for most files, up to {@link MAX_CHECK_WAIT_MS} for
 * a file whose check is known to be slow — instead of giving up at a fixed ceiling every time, which
 * left a big file "not checked yet" write after write.
 */
export class CheckDurations {
  private readonly lastMs = new Map<string, number>();

  /** Remember that checking `path` took `ms`. */
  record(server: string, path: string, ms: number): void {
    this.lastMs.set(`${server}\u0000${path}`, ms);
  }

  /** A check that did not finish within `waitedMs`: the next one gets the most. */
  recordUnfinished(server: string, path: string, waitedMs: number): void {
    this.lastMs.set(`${server}\u0000${path}`, Math.max(waitedMs, MAX_CHECK_WAIT_MS));
  }

  /** How long to wait for `path`'s check: `baseMs`, or more when its last check needed it. */
  waitFor(server: string, path: string, baseMs: number): number {
    const last = this.lastMs.get(`${server}\u0000${path}`);
    if (last === undefined) return baseMs;
    return Math.min(MAX_CHECK_WAIT_MS, Math.max(baseMs, Math.ceil(last * headroom)));
  }
}

const bySupervisor = new WeakMap<object, CheckDurations>();

/** The durations kept for one supervisor (one run). */
export function checkDurationsOf(supervisor: object): CheckDurations {
  let durations = bySupervisor.get(supervisor);
  if (durations === undefined) {
    durations = new CheckDurations();
    bySupervisor.set(supervisor, durations);
  }
  return durations;
}
