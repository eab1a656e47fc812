import type { AskCard } from "./ask-port.js";
import { optionRange, resolveSelection, type ReplyReading } from "./resolve-selection.js";

/** The word that skips a card in a typed reply; no option may be labelled with it. */
export const SKIP_WORD = "skip";

/** The outcome of a card the operator chose to skip. */
export const SKIPPED_BY_OPERATOR = Object.freeze({ status: "skipped", via: "the operator skipped it" } as const);

const numberList = /^\d+(?:\s*[,\s]\s*\d+)*$/;

function sameLabel(reply: string, label: string): boolean {
  return reply.trim().toLowerCase() === label.trim().toLowerCase();
}

function numberOfLabel(card: AskCard, reply: string): number | undefined {
  const index = card.options.findIndex((option) => sameLabel(reply, option.label));
  return index === -1 ? undefined : index + 1;
}

/**
 * Read a typed reply: `skip`; a number or, for multi-select, numbers separated by commas or spaces
 * (`1,3`); an option's exact label (case and surrounding spaces aside), or labels separated by
 * commas for multi-select; otherwise the operator's own words where free text is allowed. Digits
 * alone always mean option numbers, so `7` on a three-option card is refused, not taken as text.
 */
export function interpretReply(card: AskCard, reply: string): ReplyReading {
  const trimmed = reply.trim();
  if (trimmed === "")
    return {
      ok: false,
      problem: `The reply is empty; type ${card.options.length > 0 ? `a number (${optionRange(card)})` : "your answer"}, or \`${SKIP_WORD}\`.`,
    };
  if (trimmed.toLowerCase() === SKIP_WORD) return { ok: true, outcome: SKIPPED_BY_OPERATOR };
  if (numberList.test(trimmed)) return resolveSelection(card, trimmed.split(/[,\s]+/).map(Number), undefined);
  const whole = numberOfLabel(card, trimmed);
  if (whole !== undefined) return resolveSelection(card, [whole], undefined);
  if (card.multiSelect && trimmed.includes(",")) {
    const parts = trimmed.split(",").map((part) => part.trim());
    const numbers = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : numberOfLabel(card, part)));
    if (numbers.every((number) => number !== undefined)) return resolveSelection(card, numbers, undefined);
  }
  if (card.allowFreeText) return resolveSelection(card, [], trimmed);
  return {
    ok: false,
    problem: `\`${trimmed.length > 60 ? `${trimmed.slice(0, 59)}…` : trimmed}\` is not one of the options; type ${card.multiSelect ? "numbers such as `1,3`" : "a number"} (${optionRange(card)}), an option's label, or \`${SKIP_WORD}\`.`,
  };
}
