import type { AskCard, AskChoice, AskOutcome } from "./ask-port.js";

/** A reply turned into an outcome, or why it cannot be one (the port re-asks with the reason). */
export type ReplyReading =
  { ok: true; outcome: Extract<AskOutcome, { status: "answered" | "skipped" }> } | { ok: false; problem: string };

/** Chosen options as shown on the card: `2) Postgres`. */
export function numberedChoices(choices: readonly AskChoice[]): string[] {
  return choices.map((choice) => `${choice.number}) ${choice.label}`);
}

/** How a card's choices are named in a problem: `1–3`, or `1` for one. */
export function optionRange(card: AskCard): string {
  return card.options.length === 1 ? "1" : `1–${card.options.length}`;
}

/**
 * Check chosen option numbers (1-based) and free text against what the card allows: every number
 * exists, one at most unless multi-select, text only where free text is allowed, something chosen.
 */
export function resolveSelection(card: AskCard, numbers: readonly number[], text: string | undefined): ReplyReading {
  const unique = [...new Set(numbers)];
  const missing = unique.find((number) => !Number.isInteger(number) || number < 1 || number > card.options.length);
  if (missing !== undefined) {
    return {
      ok: false,
      problem:
        card.options.length === 0
          ? `There are no options to pick (\`${missing}\`); write your answer.`
          : `There is no option \`${missing}\`; ${card.options.length === 1 ? "the only option is 1" : `the options are ${optionRange(card)}`}.`,
    };
  }
  if (unique.length > 1 && !card.multiSelect)
    return { ok: false, problem: `Pick one option, not ${unique.length} (\`${unique.join(",")}\`).` };
  const ownText = text?.trim() === "" ? undefined : text?.trim();
  if (ownText !== undefined && !card.allowFreeText)
    return {
      ok: false,
      problem: `Answers of your own are not accepted here; pick ${card.multiSelect ? "options" : "an option"} by number (${optionRange(card)}).`,
    };
  if (unique.length === 0 && ownText === undefined)
    return { ok: false, problem: "Nothing was chosen; pick an option by number or label, or skip." };
  const choices = unique.map((number) => ({ number, label: card.options[number - 1]!.label }));
  return { ok: true, outcome: { status: "answered", choices, ...(ownText === undefined ? {} : { text: ownText }) } };
}
