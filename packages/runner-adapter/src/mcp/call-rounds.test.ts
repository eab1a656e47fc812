import { describe, expect, it } from "vitest";
import { CallRounds } from "./call-rounds.js";
import { QuestionBoard, type FormQuestion } from "./question-board.js";

const form = (message: string): FormQuestion => ({ message, requestedSchema: { type: "object", properties: {} } });
const never = new AbortController().signal;

function newCall(board = new QuestionBoard<CallRounds<unknown>>(), answerTimeoutMs = 60_000) {
  let ended = 0;
  const rounds = new CallRounds<string>({ board, answerTimeoutMs, onEnded: () => (ended += 1) });
  return { rounds, board, ended: () => ended };
}

describe("CallRounds", () => {
  it("hands out a question in a round, resumes with the answer, and answers in the next round", async () => {
    const { rounds, ended } = newCall();
    rounds.start(async () => {
      const answer = await rounds.ask(form("Allow?"), never);
      return answer.action;
    });
    const first = await rounds.nextRound(never);
    expect(first).toEqual({ kind: "questions", questions: new Map([["question-1", form("Allow?")]]) });
    rounds.takeAnswers({ "question-1": { action: "accept", content: { approve: true } } });
    expect(await rounds.nextRound(never)).toEqual({ kind: "answered", answer: "accept" });
    expect(ended()).toBe(1);
  });

  it("asks again a question a retry left unanswered, and reads a malformed answer as none", async () => {
    const { rounds } = newCall();
    rounds.start(async () => (await rounds.ask(form("Name?"), never)).action);
    await rounds.nextRound(never);
    rounds.takeAnswers({ "question-1": "yes please", other: { action: "accept" } });
    const again = await rounds.nextRound(never);
    expect(again.kind).toBe("questions");
    rounds.takeAnswers({ "question-1": { action: "accept", content: "not an object" } });
    // An accepted form without an object is read as dismissed, never guessed at.
    expect(await rounds.nextRound(never)).toEqual({ kind: "answered", answer: "cancel" });
  });

  it("refuses a second round while one waits, instead of leaving one waiting for nothing", async () => {
    const { rounds } = newCall();
    let finish!: (value: string) => void;
    rounds.start(() => new Promise<string>((resolve) => (finish = resolve)));
    const waiting = rounds.nextRound(never);
    await expect(rounds.nextRound(never)).rejects.toThrow("a round of this call is already waiting");
    finish("done");
    expect(await waiting).toEqual({ kind: "answered", answer: "done" });
  });

  it("cancels the call, failing its question and aborting its work, when no retry comes in time", async () => {
    const { rounds, ended } = newCall(undefined, 50);
    let asked!: Promise<unknown>;
    let workSignal!: AbortSignal;
    rounds.start((signal) => {
      workSignal = signal;
      asked = rounds.ask(form("Still there?"), signal).catch((error: unknown) => error);
      return asked.then(() => "gave up");
    });
    expect((await rounds.nextRound(never)).kind).toBe("questions");
    expect(await asked).toMatchObject({ message: expect.stringContaining("did not come back") });
    expect(workSignal.aborted).toBe(true);
    expect(ended()).toBe(1);
  });

  it("cancels the call when the client cancels a round", async () => {
    const { rounds } = newCall();
    let workSignal!: AbortSignal;
    rounds.start(
      (signal) =>
        new Promise<string>((resolve) => {
          workSignal = signal;
          signal.addEventListener("abort", () => resolve("stopped"));
        }),
    );
    const controller = new AbortController();
    const round = rounds.nextRound(controller.signal);
    controller.abort();
    expect(await round).toEqual({ kind: "answered", answer: "stopped" });
    expect(workSignal.aborted).toBe(true);
  });
});

describe("QuestionBoard", () => {
  it("gives a question asked outside any call to the next call's round, and back to the board when that call ends", async () => {
    const board = new QuestionBoard<CallRounds<unknown>>();
    const outside = board.ask(form("May the worker write?"), never, undefined);
    const first = newCall(board);
    first.rounds.start(() => new Promise<string>(() => undefined));
    expect(await first.rounds.nextRound(never)).toMatchObject({ kind: "questions" });
    // The carrying call ends without the answer: the question is another call's to carry.
    first.rounds.cancel(new Error("client left"));
    const second = newCall(board);
    second.rounds.start(() => new Promise<string>(() => undefined));
    const round = await second.rounds.nextRound(never);
    expect(round).toEqual({ kind: "questions", questions: new Map([["question-1", form("May the worker write?")]]) });
    second.rounds.takeAnswers({ "question-1": { action: "decline" } });
    expect(await outside).toEqual({ action: "decline" });
    second.rounds.cancel(new Error("done"));
  });

  it("withdraws a question whose signal aborts", async () => {
    const board = new QuestionBoard<CallRounds<unknown>>();
    const controller = new AbortController();
    const asked = board.ask(form("Deploy?"), controller.signal, undefined);
    controller.abort(new Error("the ask timed out"));
    await expect(asked).rejects.toThrow("the ask timed out");
    const { rounds } = newCall(board);
    expect(board.takeFor(rounds).size).toBe(0);
  });
});
