import { randomBytes } from "node:crypto";
import type { FormQuestion, QuestionBoard } from "./question-board.js";

/** What a round of a call ends with: the call's answer, or the questions the client must answer first. */
export type RoundEnd<Answer> =
  { kind: "answered"; answer: Answer } | { kind: "questions"; questions: ReadonlyMap<string, FormQuestion> };

/** Settings of a {@link CallRounds}. */
export interface CallRoundsSettings {
  /** The connection's questions (this call's own, and those asked outside any call). */
  board: QuestionBoard<CallRounds<unknown>>;
  /** How long a call waits for the client to come back with answers before it is cancelled. */
  answerTimeoutMs: number;
  /** Called once the call is over (answered, cancelled or abandoned), to forget it. */
  onEnded: () => void;
}

/**
 * One `tools/call` over the rounds MCP 2026-07-28 gives it. The protocol has no server→client
 * requests: a call that needs the user's input answers "input required" with its questions and a
 * `requestState`, and the client retries the call with the answers. The run's call keeps running in
 * between, suspended on its questions; each round waits until the run's call has either answered or
 * there are questions the client has not seen. (A 2025-era client is asked by `elicitation/create`
 * requests instead, which the server can withdraw; its calls have one round.)
 *
 * The `requestState` is a random token naming the call on its connection: it grants nothing by
 * itself, and a token the connection does not know is refused.
 */
export class CallRounds<Answer> {
  /** The `requestState` of this call's rounds. */
  readonly token = randomBytes(18).toString("base64url");
  private readonly controller = new AbortController();
  private outcome: { answer: Answer } | { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private abandonTimer: NodeJS.Timeout | undefined;
  private unfollowRound: (() => void) | undefined;
  private ended = false;
  private roundWaiting = false;

  constructor(private readonly settings: CallRoundsSettings) {}

  /** Aborted when the client cancels a round, stops answering, or the connection ends. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Runs the call: `work` gets this call's signal; what it resolves with is the call's answer. */
  start(work: (signal: AbortSignal) => Promise<Answer>): void {
    const settle = (outcome: { answer: Answer } | { error: unknown }): void => {
      this.outcome = outcome;
      this.wake?.();
    };
    // The run answers failures as results; a rejection here is a bug, passed on rather than lost.
    work(this.signal).then(
      (answer) => settle({ answer }),
      (error: unknown) => settle({ error }),
    );
  }

  /** True while a round of this call waits for the call to answer or ask. */
  get isRoundWaiting(): boolean {
    return this.roundWaiting;
  }

  /** True once the call has answered or was cancelled. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Asks the client's user from inside this call; the answer comes with a later round. */
  ask(question: FormQuestion, signal: AbortSignal): Promise<ElicitAnswer> {
    if (this.ended) return Promise.reject(new Error("the tool call has ended"));
    return this.settings.board.ask(question, signal, this);
  }

  /** Takes a retry's answers (see {@link QuestionBoard.answer}). */
  takeAnswers(answers: Readonly<Record<string, unknown>> | undefined): void {
    this.settings.board.answer(this, answers);
  }

  /**
   * One round: waits until the call has answered or has questions the client has not been shown.
   * `roundSignal` is the MCP request's own: its abort (the client cancelled) cancels the call.
   */
  async nextRound(roundSignal: AbortSignal): Promise<RoundEnd<Answer>> {
    if (this.roundWaiting) throw new Error("a round of this call is already waiting");
    this.roundWaiting = true;
    clearTimeout(this.abandonTimer);
    this.followRound(roundSignal);
    const stopListening = this.settings.board.onChange(() => this.wake?.());
    try {
      for (;;) {
        if (this.outcome !== undefined) {
          this.end(new Error("the tool call has ended"));
          if ("error" in this.outcome) throw this.outcome.error;
          return { kind: "answered", answer: this.outcome.answer };
        }
        const questions = this.signal.aborted ? new Map() : this.settings.board.takeFor(this);
        if (questions.size > 0) {
          this.abandonTimer = setTimeout(
            () => this.cancel(new Error(this.abandonedReason())),
            this.settings.answerTimeoutMs,
          );
          this.abandonTimer.unref();
          return { kind: "questions", questions };
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } finally {
      stopListening();
      this.roundWaiting = false;
    }
  }

  /** Ends the call: its questions fail and the run's call is aborted (the connection closed, or the client left). */
  cancel(reason: Error): void {
    if (this.ended) return;
    this.controller.abort(reason);
    this.end(reason);
  }

  /** A cancelled round cancels the call (followed until the next round begins). */
  private followRound(roundSignal: AbortSignal): void {
    this.unfollowRound?.();
    const cancel = (): void => this.cancel(new Error("the client cancelled the tool call"));
    if (roundSignal.aborted) return cancel();
    roundSignal.addEventListener("abort", cancel, { once: true });
    this.unfollowRound = () => roundSignal.removeEventListener("abort", cancel);
  }

  private abandonedReason(): string {
    const seconds = Math.round(this.settings.answerTimeoutMs / 1000);
    return `the client did not come back with the user's answers within ${seconds} s, so the call was cancelled`;
  }

  private end(reason: Error): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.abandonTimer);
    this.unfollowRound?.();
    this.settings.board.release(this, reason);
    this.settings.onEnded();
  }
}

type ElicitAnswer = Awaited<ReturnType<QuestionBoard<unknown>["ask"]>>;
