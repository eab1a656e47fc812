import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { AskPort } from "./ask-port.js";
import { createInMemoryAskPort } from "./in-memory-ask-port.js";
import { presentCard } from "./present-card.js";
import { sampleCard } from "./test-support/cards.js";

const never = new AbortController().signal;

describe("presentCard", () => {
  it("answers `no_operator` at once and shows nothing when the port has nobody", async () => {
    const port = createInMemoryAskPort();
    port.setOperatorPresent(false);
    expect(await presentCard(port, sampleCard(), { signal: never, timeoutMs: 60_000 })).toEqual({
      status: "no_operator",
    });
    expect(port.pending()).toEqual([]);
  });

  it("passes the port's outcome through", async () => {
    const port = createInMemoryAskPort();
    port.subscribe((event) => {
      if (event.type === "added") port.reply(event.pending.card.id, "2");
    });
    expect(await presentCard(port, sampleCard(), { signal: never, timeoutMs: 60_000 })).toEqual({
      status: "answered",
      choices: [{ number: 2, label: "SQLite" }],
    });
  });

  it("times out, withdrawing the card from the port", async () => {
    const port = createInMemoryAskPort();
    const events: string[] = [];
    port.subscribe((event) => events.push(event.type === "resolved" ? `resolved ${event.outcome.status}` : event.type));
    const reasons: string[] = [];
    port.subscribe((event) => {
      if (event.type === "resolved" && event.outcome.status === "withdrawn") reasons.push(event.outcome.reason);
    });
    expect(await presentCard(port, sampleCard(), { signal: never, timeoutMs: 30 })).toEqual({ status: "timed_out" });
    expect(events).toEqual(["added", "resolved withdrawn"]);
    expect(reasons).toEqual(["no answer came within 30 ms"]);
    expect(port.pending()).toEqual([]);
  });

  it("withdraws the card when the asker's signal aborts, before or while it is shown", async () => {
    const port = createInMemoryAskPort();
    const controller = new AbortController();
    port.subscribe((event) => {
      if (event.type === "added") controller.abort(new Error("the run was closed"));
    });
    expect(await presentCard(port, sampleCard(), { signal: controller.signal, timeoutMs: 60_000 })).toEqual({
      status: "withdrawn",
      reason: "the run was closed",
    });
    expect(port.pending()).toEqual([]);
    expect(await presentCard(port, sampleCard(), { signal: controller.signal, timeoutMs: 60_000 })).toEqual({
      status: "withdrawn",
      reason: "the run was closed",
    });
  });

  it("settles within its budget even when the port ignores its signal, and reports a port that throws as failed", async () => {
    const deaf: AskPort = { operatorPresent: () => true, ask: () => new Promise(() => undefined) };
    expect(await presentCard(deaf, sampleCard(), { signal: never, timeoutMs: 20 })).toEqual({ status: "timed_out" });
    const controller = new AbortController();
    const pending = presentCard(deaf, sampleCard(), { signal: controller.signal, timeoutMs: 60_000 });
    controller.abort("closing");
    expect(await pending).toEqual({ status: "withdrawn", reason: "closing" });
    const broken: AskPort = { operatorPresent: () => true, ask: () => Promise.reject(new Error("the pipe broke")) };
    expect(await presentCard(broken, sampleCard(), { signal: never, timeoutMs: 60_000 })).toEqual({
      status: "failed",
      reason: "the pipe broke",
    });
  });

  it("keeps a timeout a timeout when the port answers its abort with its own withdrawal", async () => {
    const polite: AskPort = {
      operatorPresent: () => true,
      ask: (_card, { signal }) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => resolve({ status: "withdrawn", reason: "told to stop" })),
        ),
    };
    expect(await presentCard(polite, sampleCard(), { signal: never, timeoutMs: 20 })).toEqual({ status: "timed_out" });
  });

  it("leaves no listener on the asker's signal once settled, and waits out a budget longer than a timer can hold", async () => {
    const port = createInMemoryAskPort();
    port.subscribe((event) => {
      if (event.type === "added") setTimeout(() => port.reply(event.pending.card.id, "1"), 20);
    });
    const signal = new AbortController().signal;
    expect(await presentCard(port, sampleCard(), { signal, timeoutMs: 2 ** 32 })).toMatchObject({ status: "answered" });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
