/**
 * Waiters for a condition over state that changes on events (a `$/progress` update, a report): each
 * change calls {@link ConditionWatchers.wake}, and every waiter whose condition now holds resolves.
 */
export class ConditionWatchers {
  private readonly watchers = new Set<() => void>();

  /** Re-check every waiting condition: call after each change of the state they read. */
  wake(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  /**
   * Wait until `done()` holds after some change, or `signal` aborts (no rejection either way).
   * @returns whether `done()` held.
   */
  async waitUntil(done: () => boolean, signal: AbortSignal): Promise<boolean> {
    if (done()) return true;
    if (signal.aborted) return false;
    return new Promise((resolve) => {
      const finish = (): void => {
        this.watchers.delete(check);
        signal.removeEventListener("abort", finish);
        resolve(done());
      };
      const check = (): void => {
        if (done()) finish();
      };
      this.watchers.add(check);
      signal.addEventListener("abort", finish, { once: true });
    });
  }
}
