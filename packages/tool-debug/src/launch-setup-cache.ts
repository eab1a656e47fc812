/**
 * What a launch setup learnt by asking a program (lldb's Rust setup runs `rustc --print sysroot`),
 * kept by one debug supervisor for its life: a later launch with the same key asks nothing. A key
 * names everything the answer depends on, so a changed input is a new key rather than a stale answer.
 */
export interface LaunchSetupCache {
  /**
   * The answer kept for `key`, else `ask()`'s, kept from now on. An `undefined` answer (the program
   * failed or is missing) or a rejection is not kept: the next launch asks again. Concurrent calls
   * with one key share one `ask`.
   */
  remember<T>(key: string, ask: () => Promise<T | undefined>): Promise<T | undefined>;
  /** Drop the answer kept for `key` (it turned out unusable); the next launch asks again. */
  forget(key: string): void;
}

/** An empty cache; a supervisor makes one and hands it to every launch. */
export function createLaunchSetupCache(): LaunchSetupCache {
  const answers = new Map<string, Promise<unknown>>();
  return {
    remember<T>(key: string, ask: () => Promise<T | undefined>): Promise<T | undefined> {
      const known = answers.get(key) as Promise<T | undefined> | undefined;
      if (known !== undefined) return known;
      const answer = ask();
      answers.set(key, answer);
      const drop = () => {
        if (answers.get(key) === answer) answers.delete(key);
      };
      void answer.then((value) => {
        if (value === undefined) drop();
      }, drop);
      return answer;
    },
    forget(key) {
      answers.delete(key);
    },
  };
}
