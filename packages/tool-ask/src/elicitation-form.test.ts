import { describe, expect, it } from "vitest";
import { elicitationForm, readElicitedContent } from "./elicitation-form.js";
import { sampleCard } from "./test-support/cards.js";

describe("elicitationForm", () => {
  it("asks for a text answer only when a card has no options", () => {
    expect(elicitationForm(sampleCard({ options: [], allowFreeText: true })).requestedSchema).toEqual({
      type: "object",
      properties: { answer: { type: "string", title: "Your answer" } },
    });
  });

  it("requires a choice for a multi-select without free text, and puts the reason of a re-ask first", () => {
    const form = elicitationForm(sampleCard({ multiSelect: true, context: "  " }), "Pick one.");
    expect(form.requestedSchema.required).toEqual(["choices"]);
    expect(form.requestedSchema.properties["choices"]).toMatchObject({ type: "array", minItems: 1 });
    expect(form.message).toBe("Pick one. Please answer again.\n\nWhich database?\n\nDecline to skip this question.");
  });
});

describe("readElicitedContent", () => {
  it("reads option numbers from either field and refuses values that are no option number", () => {
    const card = sampleCard({ multiSelect: true });
    expect(readElicitedContent(card, { choices: ["3", "1"] })).toMatchObject({
      ok: true,
      outcome: { choices: [{ number: 3 }, { number: 1 }] },
    });
    expect(readElicitedContent(card, { choices: ["1", "x"] })).toEqual({
      ok: false,
      problem: 'The form\'s choice `"x"` is not an option number; choose from the list.',
    });
    expect(readElicitedContent(sampleCard(), { choice: 2 })).toEqual({
      ok: false,
      problem: "The form's choice `2` is not an option number; choose from the list.",
    });
    expect(readElicitedContent(sampleCard(), { choice: "4" })).toEqual({
      ok: false,
      problem: "There is no option `4`; the options are 1–3.",
    });
    expect(readElicitedContent(sampleCard(), undefined)).toEqual({
      ok: false,
      problem: "Nothing was chosen; pick an option by number or label, or skip.",
    });
    expect(readElicitedContent(sampleCard(), { choice: "1", answer: "why not" })).toEqual({
      ok: false,
      problem: "Answers of your own are not accepted here; pick an option by number (1–3).",
    });
    expect(readElicitedContent(sampleCard({ allowFreeText: true }), { answer: 5 })).toEqual({
      ok: false,
      problem: "Nothing was chosen; pick an option by number or label, or skip.",
    });
  });
});
