import { describe, expect, it } from "vitest";
import { renderCard } from "./render-card.js";
import { sampleCard } from "./test-support/cards.js";

describe("renderCard", () => {
  it("numbers the options under the question and its context, and says how to reply", () => {
    expect(renderCard(sampleCard({ context: "The tests need one.\nProduction uses Postgres." }))).toBe(
      [
        "Question: Which database?",
        "  The tests need one.",
        "  Production uses Postgres.",
        "  1) Postgres — The one in production.",
        "  2) SQLite",
        "  3) Redis, as a cache",
        "Reply with a number (1–3) or the option's label; `skip` to skip.",
      ].join("\n"),
    );
  });

  it("says how to answer a multi-select card, a free-text card and a permission card", () => {
    expect(
      renderCard(sampleCard({ multiSelect: true, allowFreeText: true }))
        .split("\n")
        .at(-1),
    ).toBe(
      "Reply with numbers (1–3) separated by commas, e.g. `1,3`, labels separated by commas or your own answer; `skip` to skip.",
    );
    expect(renderCard(sampleCard({ options: [], allowFreeText: true, context: "  " }))).toBe(
      "Question: Which database?\nReply with your answer; `skip` to skip.",
    );
    expect(
      renderCard(
        sampleCard({ purpose: "permission", options: [{ label: "Allow once" }, { label: "Deny" }], multiSelect: true }),
      ).split("\n")[0],
    ).toBe("Permission: Which database?");
    expect(
      renderCard(sampleCard({ options: [{ label: "A" }, { label: "B" }], multiSelect: true }))
        .split("\n")
        .at(-1),
    ).toContain("e.g. `1,2`");
  });
});
