import { resultErrorCode, resultText, TargetSpace } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { AskPort } from "./ask-port.js";
import { createAskUserTool } from "./ask-user-tool.js";
import { askRun, nextCard } from "./test-support/ask-run.js";

const question = {
  question: "Which database?",
  options: [{ label: "Postgres", description: "The one in production." }, { label: "SQLite" }, { label: "Redis" }],
  allow_free_text: false,
  multi_select: false,
};

describe("ask_user", () => {
  it("shows a numbered card and answers the chosen numbers and labels, with any text", async () => {
    const { run, port } = await askRun();
    const shown = nextCard(port);
    const call = run.call("ask_user", {
      ...question,
      context: "Tests need one.",
      multi_select: true,
      allow_free_text: true,
    });
    const pending = await shown;
    expect(pending.card).toMatchObject({
      purpose: "question",
      question: "Which database?",
      context: "Tests need one.",
      multiSelect: true,
      allowFreeText: true,
      space: { id: "ui", label: "the test UI" },
      runId: run.id,
    });
    expect(pending.text).toContain("  1) Postgres — The one in production.");
    expect(port.reply(pending.card.id, "1,3")).toEqual({ accepted: true });
    const result = await call;
    expect(resultText(result)).toBe("The operator chose 1) Postgres; 3) Redis.");
    expect(result.structured).toEqual({
      status: "answered",
      choices: [
        { number: 1, label: "Postgres" },
        { number: 3, label: "Redis" },
      ],
    });
    const again = nextCard(port);
    const second = run.call("ask_user", { ...question, allow_free_text: true });
    port.answer((await again).card.id, { choices: [2], text: "in memory" });
    expect(resultText(await second)).toBe('The operator chose 2) SQLite and wrote: "in memory".');
  });

  it("answers a skip as success with the instruction, and a repeat of the question as skipped without the operator", async () => {
    const { run, port } = await askRun();
    const shown = nextCard(port);
    const call = run.call("ask_user", question);
    port.skip((await shown).card.id);
    const skipped = await call;
    expect(skipped.isError).toBeFalsy();
    expect(resultText(skipped)).toBe(
      "The operator skipped this question (the operator skipped it). State in your next message the assumption you proceed on, then continue; do not ask this question again in this run.",
    );
    let shownAgain = 0;
    port.subscribe(() => (shownAgain += 1));
    const repeat = await run.call("ask_user", { ...question, question: "  which   DATABASE? " });
    expect(resultText(repeat)).toContain("Not asked again");
    expect(repeat.structured).toEqual({ status: "skipped", via: "asked before in this run" });
    expect(shownAgain).toBe(0);
  });

  it("answers a timeout as a `timeout` error with the same instruction, and does not ask the question again", async () => {
    const { run, port } = await askRun(40);
    const result = await run.call("ask_user", question);
    expect(resultErrorCode(result)).toBe("timeout");
    expect(resultText(result)).toBe(
      "Error (timeout): Nobody answered the question `Which database?` within 40 ms. State in your next message the assumption you proceed on, then continue; do not ask this question again in this run.",
    );
    expect(port.pending()).toEqual([]);
    expect((await run.call("ask_user", question)).structured).toMatchObject({ status: "skipped" });
  });

  it("fails at once with `no_operator` when the port has nobody, and is asked again once someone is there", async () => {
    const { run, port } = await askRun();
    port.setOperatorPresent(false);
    const result = await run.call("ask_user", question);
    expect(resultErrorCode(result)).toBe("no_operator");
    expect(resultText(result)).toContain("No operator is attached to `the test UI` to answer `Which database?`");
    port.setOperatorPresent(true);
    const shown = nextCard(port);
    const call = run.call("ask_user", question);
    port.reply((await shown).card.id, "sqlite");
    expect((await call).structured).toMatchObject({ status: "answered" });
  });

  it("withdraws a pending card when the run closes", async () => {
    const { run, port } = await askRun();
    const outcomes: string[] = [];
    port.subscribe((event) => {
      if (event.type === "resolved") outcomes.push(event.outcome.status);
    });
    const shown = nextCard(port);
    const call = run.call("ask_user", question);
    await shown;
    await run.close({ graceMs: 1_000 });
    expect(resultErrorCode(await call)).toBe("cancelled");
    expect(outcomes).toEqual(["withdrawn"]);
    expect(port.pending()).toEqual([]);
  });

  it("is absent from the run's tools while no port or no target space is attached", async () => {
    const { run } = await askRun();
    expect(run.visibleTools().map((tool) => tool.name)).toEqual(["ask_user"]);
    await run.detach(TargetSpace);
    expect(run.visibleTools()).toEqual([]);
    await run.attach(TargetSpace, { value: { id: "ui", label: "the test UI" } });
    await run.detach(AskPort);
    expect(run.visibleTools()).toEqual([]);
    expect(resultErrorCode(await run.call("ask_user", question))).toBe("unavailable");
  });

  it("refuses inputs no operator could answer, naming the field and the bound", async () => {
    const { run } = await askRun();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ question: "  " }, "`question` is empty. Ask one sentence ending with `?`."],
      [
        { question: "x".repeat(501) },
        "`question` is 501 characters long; the limit is 500 characters. Put the background in `context`.",
      ],
      [{ context: "c".repeat(2_001) }, "`context` is 2001 characters long; the limit is 2000 characters. Shorten it."],
      [
        { options: Array.from({ length: 10 }, (_, index) => ({ label: `Option ${index}` })) },
        "`options` has 10 entries; offer at most 9 (the card numbers them 1–9).",
      ],
      [{ options: [{ label: " " }] }, "`options.0.label` is empty. Give each option a label of 1–5 words."],
      [
        { options: [{ label: "l".repeat(81) }] },
        "`options.0.label` is 81 characters long; the limit is 80 characters. Put the detail in `description`.",
      ],
      [
        { options: [{ label: "first\nsecond" }] },
        "Option 1's label `first…` spans several lines; write it on one line.",
      ],
      [
        { options: [{ label: "A" }, { label: "3" }] },
        "Option 2's label `3` is a bare number, which a reply would read as an option number; add a word, e.g. `3 items`.",
      ],
      [
        { options: [{ label: "Skip" }] },
        "Option 1's label `Skip` is the word that skips a card; every card can be skipped already, so leave that option out.",
      ],
      [
        { options: [{ label: "A", description: "d".repeat(301) }] },
        "`options.0.description` is 301 characters long; the limit is 300 characters. Shorten it.",
      ],
      [
        { options: [{ label: "Same" }, { label: "B" }, { label: "same " }] },
        "Options 1 and 3 are both labelled `same`; give each option its own label.",
      ],
      [
        { options: [] },
        "`options` is empty and `allow_free_text` is false, so no answer is possible; offer options or set `allow_free_text` to true.",
      ],
      [
        { options: [{ label: "Only" }], multi_select: true },
        "`multi_select` is true with 1 option; offer at least 2 options or set it to false.",
      ],
      [
        { options: [], allow_free_text: true, multi_select: true },
        "`multi_select` is true with 0 options; offer at least 2 options or set it to false.",
      ],
    ];
    for (const [change, message] of cases) {
      const result = await run.call("ask_user", { ...question, ...change });
      expect(resultErrorCode(result), message).toBe("invalid_input");
      expect(resultText(result)).toBe(`Error (invalid_input): ${message}`);
    }
  });

  it("states its budget in its description and outlasts it in the host's", () => {
    const tool = createAskUserTool({ timeoutMs: 90_000 });
    expect(tool.description).toContain("(up to 1.5 minutes)");
    expect(tool.timeoutMs).toBe(120_000);
    expect(createAskUserTool().description).toContain("(up to 10 minutes)");
    expect(createAskUserTool({ timeoutMs: 60_000 }).description).toContain("(up to 1 minute)");
    expect(createAskUserTool({ timeoutMs: 45_000 }).description).toContain("(up to 45 seconds)");
    expect(() => createAskUserTool({ timeoutMs: 0 })).toThrow(
      "The ask timeout `0` is not a positive number of milliseconds; pass one such as `600000` (10 minutes).",
    );
    expect(() => createAskUserTool({ timeoutMs: Number.NaN })).toThrow("`NaN`");
  });
});
