import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineReader } from "./line-reader.js";
import { createTerminalAskPort } from "./terminal-ask-port.js";
import { sampleCard } from "./test-support/cards.js";

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = "";
  output.on("data", (chunk: Buffer) => (screen += chunk.toString()));
  return { input, port: createTerminalAskPort({ input, output }), screen: () => screen };
}

const never = new AbortController().signal;

describe("createTerminalAskPort", () => {
  it("shows cards one at a time, in the order asked", async () => {
    const { input, port, screen } = terminal();
    const first = port.ask(sampleCard({ question: "First?" }), { signal: never });
    const second = port.ask(sampleCard({ question: "Second?" }), { signal: never });
    await new Promise((resolve) => setImmediate(resolve));
    expect(screen()).toContain("First?");
    expect(screen()).not.toContain("Second?");
    input.write("1\n");
    expect(await first).toMatchObject({ status: "answered", choices: [{ number: 1 }] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(screen()).toContain("(Answered: 1) Postgres.)\n");
    input.write("skip\n");
    expect(await second).toEqual({ status: "skipped", via: "the operator skipped it" });
    expect(screen()).toContain("(Skipped.)\n");
  });

  it("withdraws a queued card without showing it, and says so on a shown one", async () => {
    const { input, port, screen } = terminal();
    const shown = new AbortController();
    const queued = new AbortController();
    const first = port.ask(sampleCard({ question: "First?" }), { signal: shown.signal });
    const second = port.ask(sampleCard({ question: "Second?" }), { signal: queued.signal });
    queued.abort(new Error("cancelled by the caller"));
    await new Promise((resolve) => setImmediate(resolve));
    shown.abort(new Error("the run ended"));
    expect(await first).toEqual({ status: "withdrawn", reason: "the run ended" });
    expect(await second).toEqual({
      status: "withdrawn",
      reason: "the asker stopped waiting before the card was shown",
    });
    expect(screen()).toContain("(Withdrawn: the run ended.)");
    expect(screen()).not.toContain("Second?");
    expect(input.isPaused()).toBe(true);
  });

  it("skips the shown card at the end of input, reports no operator after it, and skips a card queued behind it", async () => {
    const { input, port, screen } = terminal();
    expect(port.operatorPresent()).toBe(true);
    const first = port.ask(sampleCard(), { signal: never });
    const second = port.ask(sampleCard({ question: "Second?" }), { signal: never });
    input.end();
    expect(await first).toEqual({ status: "skipped", via: "the operator ended the input (Ctrl-D)" });
    expect(await second).toEqual({ status: "skipped", via: "the operator ended the input (Ctrl-D)" });
    expect(port.operatorPresent()).toBe(false);
    expect(screen()).toContain("(Input ended: skipped.)");
    expect(screen()).not.toContain("Second?");
  });
});

describe("createTerminalAskPort sharing its reader with the host", () => {
  it("reads the host's lines and the replies from one buffer, in the order typed", async () => {
    const input = new PassThrough();
    const lines = new LineReader(input);
    const port = createTerminalAskPort({ input, output: new PassThrough(), lines });
    const request = lines.readLine(never);
    input.write('{"tool":"ask_user"}\n2\n');
    expect(await request).toEqual({ kind: "line", text: '{"tool":"ask_user"}' });
    expect(await port.ask(sampleCard(), { signal: never })).toMatchObject({
      status: "answered",
      choices: [{ number: 2 }],
    });
  });
});
