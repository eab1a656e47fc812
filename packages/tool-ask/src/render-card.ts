import type { AskCard } from "./ask-port.js";
import { SKIP_WORD } from "./interpret-reply.js";
import { optionRange } from "./resolve-selection.js";

/** How to answer a card by typing, in one line. */
export function replyHint(card: AskCard): string {
  const ways: string[] = [];
  if (card.options.length > 0) {
    ways.push(
      card.multiSelect
        ? `numbers (${optionRange(card)}) separated by commas, e.g. \`1,${Math.min(card.options.length, 3)}\``
        : `a number (${optionRange(card)})`,
    );
    ways.push(card.multiSelect ? "labels separated by commas" : "the option's label");
  }
  if (card.allowFreeText) ways.push(card.options.length > 0 ? "your own answer" : "your answer");
  const last = ways.pop()!;
  return `Reply with ${ways.length > 0 ? `${ways.join(", ")} or ${last}` : last}; \`${SKIP_WORD}\` to skip.`;
}

/** The card as plain text: the question, its context, the numbered options, and how to reply. */
export function renderCard(card: AskCard): string {
  const lines = [`${card.purpose === "permission" ? "Permission" : "Question"}: ${card.question}`];
  if (card.context !== undefined && card.context.trim() !== "")
    lines.push(
      ...card.context
        .trim()
        .split("\n")
        .map((line) => `  ${line}`),
    );
  card.options.forEach((option, index) => {
    lines.push(`  ${index + 1}) ${option.label}${option.description === undefined ? "" : ` — ${option.description}`}`);
  });
  lines.push(replyHint(card));
  return lines.join("\n");
}
