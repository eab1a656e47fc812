import { assertTextLength, emptyText } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import type { AskOption } from "./ask-port.js";
import { SKIP_WORD } from "./interpret-reply.js";

/** Bounds of `ask_user`'s input, checked by the tool and said in its descriptions (strict schemas cannot express lengths). */
export const ASK_LIMITS = Object.freeze({ question: 500, context: 2_000, options: 9, label: 80, description: 300 });

/** What `ask_user` checks beyond the schema. */
export interface AskInputToCheck {
  question: string;
  context?: string;
  options: readonly AskOption[];
  allow_free_text: boolean;
  multi_select: boolean;
}

function invalid(message: string): ToolError {
  return new ToolError({ code: "invalid_input", message });
}

function checkOption(option: AskOption, index: number, seen: Map<string, number>): void {
  const where = `Option ${index + 1}`;
  const label = option.label.trim();
  if (label === "") throw emptyText(`options.${index}.label`, "Give each option a label of 1–5 words.");
  assertTextLength(`options.${index}.label`, label, ASK_LIMITS.label, "Put the detail in `description`.");
  if (/[\r\n]/.test(option.label))
    throw invalid(`${where}'s label \`${label.split(/[\r\n]/)[0]}…\` spans several lines; write it on one line.`);
  if (/^\d+$/.test(label))
    throw invalid(
      `${where}'s label \`${label}\` is a bare number, which a reply would read as an option number; add a word, e.g. \`${label} items\`.`,
    );
  if (label.toLowerCase() === SKIP_WORD)
    throw invalid(
      `${where}'s label \`${label}\` is the word that skips a card; every card can be skipped already, so leave that option out.`,
    );
  assertTextLength(`options.${index}.description`, option.description ?? "", ASK_LIMITS.description, "Shorten it.");
  const key = label.toLowerCase();
  const earlier = seen.get(key);
  if (earlier !== undefined)
    throw invalid(
      `Options ${earlier} and ${index + 1} are both labelled \`${label}\`; give each option its own label.`,
    );
  seen.set(key, index + 1);
}

/** @throws ToolError `invalid_input` naming the field, its value or size, and the bound. */
export function checkAskInput(input: AskInputToCheck): void {
  const question = input.question.trim();
  if (question === "") throw emptyText("question", "Ask one sentence ending with `?`.");
  assertTextLength("question", question, ASK_LIMITS.question, "Put the background in `context`.");
  assertTextLength("context", input.context ?? "", ASK_LIMITS.context, "Shorten it.");
  if (input.options.length > ASK_LIMITS.options)
    throw invalid(
      `\`options\` has ${input.options.length} entries; offer at most ${ASK_LIMITS.options} (the card numbers them 1–${ASK_LIMITS.options}).`,
    );
  const seen = new Map<string, number>();
  input.options.forEach((option, index) => checkOption(option, index, seen));
  if (input.options.length === 0 && !input.allow_free_text)
    throw invalid(
      "`options` is empty and `allow_free_text` is false, so no answer is possible; offer options or set `allow_free_text` to true.",
    );
  if (input.multi_select && input.options.length < 2)
    throw invalid(
      `\`multi_select\` is true with ${input.options.length} ${input.options.length === 1 ? "option" : "options"}; offer at least 2 options or set it to false.`,
    );
}
