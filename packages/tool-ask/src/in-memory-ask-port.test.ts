import { describe, expect, it } from "vitest";
import { createInMemoryAskPort, type InMemoryAskEvent } from "./in-memory-ask-port.js";
import { sampleCard } from "./test-support/cards.js";

describe("createInMemoryAskPort", () => {
  it("lists pending cards oldest first, keeps a refused reply's reason on the card, and resolves through the API", async () => {
    const port = createInMemoryAskPort();
    const events: InMemoryAskEvent[] = [];
    port.subscribe((event) => events.push(event));
    const first = port.ask(sampleCard({ id: "a" }), { signal: new AbortController().signal });
    const second = port.ask(sampleCard({ id: "b", allowFreeText: true }), { signal: new AbortController().signal });
    expect(port.pending().map((pending) => pending.card.id)).toEqual(["a", "b"]);
    expect(port.reply("a", "9")).toEqual({ accepted: false, problem: "There is no option `9`; the options are 1–3." });
    expect(port.pending()[0]!.problem).toBe("There is no option `9`; the options are 1–3.");
    expect(port.answer("a", { choices: [1, 2] })).toEqual({
      accepted: false,
      problem: "Pick one option, not 2 (`1,2`).",
    });
    expect(port.answer("a", { choices: [2] })).toEqual({ accepted: true });
    expect(await first).toEqual({ status: "answered", choices: [{ number: 2, label: "SQLite" }] });
    expect(port.reply("b", "my own")).toEqual({ accepted: true });
    expect(await second).toEqual({ status: "answered", choices: [], text: "my own" });
    expect(
      events.map((event) => `${event.type} ${event.type === "resolved" ? event.card.id : event.pending.card.id}`),
    ).toEqual(["added a", "added b", "reprompted a", "reprompted a", "resolved a", "resolved b"]);
    expect(port.pending()).toEqual([]);
  });

  it("skips a card, and refuses a reply to a card that is no longer pending", async () => {
    const port = createInMemoryAskPort();
    const asked = port.ask(sampleCard(), { signal: new AbortController().signal });
    expect(port.skip("card-1")).toEqual({ accepted: true });
    expect(await asked).toEqual({ status: "skipped", via: "the operator skipped it" });
    expect(port.skip("card-1")).toEqual({
      accepted: false,
      problem: "No card `card-1` is pending; it was answered or withdrawn already. List the pending cards again.",
    });
  });

  it("withdraws a card when the asker aborts, even one aborted before it was asked", async () => {
    const port = createInMemoryAskPort();
    const controller = new AbortController();
    const asked = port.ask(sampleCard(), { signal: controller.signal });
    controller.abort(new Error("the run ended"));
    expect(await asked).toEqual({ status: "withdrawn", reason: "the run ended" });
    expect(port.pending()).toEqual([]);
    expect(await port.ask(sampleCard(), { signal: controller.signal })).toEqual({
      status: "withdrawn",
      reason: "the run ended",
    });
    expect(port.pending()).toEqual([]);
  });

  it("keeps resolving cards when a subscriber throws, and stops telling one that unsubscribed", async () => {
    const port = createInMemoryAskPort();
    port.subscribe(() => {
      throw new Error("a broken UI");
    });
    const seen: string[] = [];
    const stop = port.subscribe((event) => seen.push(event.type));
    const asked = port.ask(sampleCard(), { signal: new AbortController().signal });
    stop();
    port.reply("card-1", "1");
    expect(await asked).toMatchObject({ status: "answered" });
    expect(seen).toEqual(["added"]);
  });

  it("reports whether an operator is present as the UI says", () => {
    const port = createInMemoryAskPort();
    expect(port.operatorPresent()).toBe(true);
    port.setOperatorPresent(false);
    expect(port.operatorPresent()).toBe(false);
  });
});
