import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/server";

/** A form question for the client's user, as an approver or an ask port puts it. */
export type FormQuestion = Omit<ElicitRequestFormParams, "mode"> & { mode?: "form" };

interface Posted<Call> {
  question: FormQuestion;
  /** The call that asked it, or none (a question from outside any call: a worker's approval). */
  owner: Call | undefined;
  /** The call whose round handed it to the client, while the client has it. */
  carrier: Call | undefined;
  resolve: (result: ElicitResult) => void;
  reject: (error: Error) => void;
}

/**
 * The questions for the client's user on one connection, until answered. MCP 2026-07-28 lets a
 * server ask only in answer to a call ("input required", answered by the client's retry), so a
 * question goes out with a round of its own call, and one asked outside any call (a background
 * worker's approval) with the next round of any call.
 */
export class QuestionBoard<Call> {
  private readonly posted = new Map<string, Posted<Call>>();
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;

  /** Posts a question; it resolves with the user's answer, or rejects when withdrawn or its call ends. */
  ask(question: FormQuestion, signal: AbortSignal, owner: Call | undefined): Promise<ElicitResult> {
    const key = `question-${this.nextKey++}`;
    return new Promise<ElicitResult>((resolve, reject) => {
      const withdraw = (): void => {
        this.posted.delete(key);
        reject(signal.reason instanceof Error ? signal.reason : new Error("the question was withdrawn"));
      };
      if (signal.aborted) return withdraw();
      signal.addEventListener("abort", withdraw, { once: true });
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          signal.removeEventListener("abort", withdraw);
          this.posted.delete(key);
          then(value);
        };
      this.posted.set(key, { question, owner, carrier: undefined, resolve: settle(resolve), reject: settle(reject) });
      this.changed();
    });
  }

  /** The questions a round of `call` can hand to the client now (its own, and unowned ones), marked as carried by it. */
  takeFor(call: Call): ReadonlyMap<string, FormQuestion> {
    const taken = new Map<string, FormQuestion>();
    for (const [key, posted] of this.posted) {
      if (posted.carrier !== undefined || (posted.owner !== undefined && posted.owner !== call)) continue;
      posted.carrier = call;
      taken.set(key, posted.question);
    }
    return taken;
  }

  /**
   * Takes the client's answers from a retry of `call` (bare elicitation results, keyed as asked):
   * each answered question it carried resolves; one left out goes back on the board.
   */
  answer(call: Call, answers: Readonly<Record<string, unknown>> | undefined): void {
    for (const [key, posted] of [...this.posted]) {
      if (posted.carrier !== call) continue;
      const answer = readElicitResult(answers?.[key]);
      if (answer === undefined) posted.carrier = undefined;
      else posted.resolve(answer);
    }
    this.changed();
  }

  /** `call` has ended: its own questions fail with `reason`; unowned ones it carried go back for another call. */
  release(call: Call, reason: Error): void {
    for (const posted of [...this.posted.values()]) {
      if (posted.owner === call) posted.reject(reason);
      else if (posted.carrier === call) posted.carrier = undefined;
    }
    this.changed();
  }

  /** Calls `listener` whenever a question is posted, answered or released. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** A client's answer to one form question, if it has the shape of an elicitation result. */
function readElicitResult(value: unknown): ElicitResult | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { action, content } = value as { action?: unknown; content?: unknown };
  if (action !== "accept" && action !== "decline" && action !== "cancel") return undefined;
  if (action !== "accept") return { action };
  // An accepted form without an object is no answer to it: read as dismissed rather than guessed at.
  if (typeof content !== "object" || content === null || Array.isArray(content)) return { action: "cancel" };
  return { action, content: content as ElicitResult["content"] };
}
