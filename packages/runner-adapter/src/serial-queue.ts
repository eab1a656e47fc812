/** Runs tasks that share a key one after another; tasks with different keys run freely. */
export class SerialQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** How many keys have a task queued or running. */
  get keys(): number {
    return this.tails.size;
  }

  /** Run `task` after every earlier task queued under `key` has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
