import type { AskCard } from "./ask-port.js";
import { resolveSelection, type ReplyReading } from "./resolve-selection.js";

/** An enum value with the text shown for it. */
export interface TitledValue {
  const: string;
  title: string;
}

/** The fields this port puts in a form: the kinds MCP's elicitation schema (2025-11-25) defines. */
export type ElicitFieldSchema =
  | { type: "string"; title?: string; description?: string; oneOf: TitledValue[] }
  | { type: "array"; title?: string; description?: string; minItems?: number; items: { anyOf: TitledValue[] } }
  | { type: "string"; title?: string; description?: string };

/** A form elicitation request as MCP's `elicitation/create` takes it (`server.elicitInput` params). */
export interface ElicitFormRequest {
  mode: "form";
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, ElicitFieldSchema>; required?: string[] };
}

/** An elicitation result: MCP's `accept` (with the form's content), `decline` or `cancel`. */
export interface ElicitResponse {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

/** The form's field names. */
export const FORM_FIELDS = Object.freeze({ choice: "choice", choices: "choices", answer: "answer" });

/**
 * The card as an MCP form: the options as a titled enum (one `choice`, or a `choices` array of
 * them for multi-select, as the 2025-11-25 elicitation schema allows), and an `answer` text field
 * when free text is allowed. The option's value is its number, so a reply never depends on a label's
 * spelling.
 */
export function elicitationForm(card: AskCard, problem?: string): ElicitFormRequest {
  const properties: Record<string, ElicitFieldSchema> = {};
  const required: string[] = [];
  const titled = card.options.map((option, index) => ({
    const: String(index + 1),
    title: `${index + 1}) ${option.label}${option.description === undefined ? "" : ` — ${option.description}`}`,
  }));
  if (card.options.length > 0 && card.multiSelect) {
    properties[FORM_FIELDS.choices] = {
      type: "array",
      title: "Choose one or more",
      items: { anyOf: titled },
      ...(card.allowFreeText ? {} : { minItems: 1 }),
    };
    if (!card.allowFreeText) required.push(FORM_FIELDS.choices);
  } else if (card.options.length > 0) {
    properties[FORM_FIELDS.choice] = { type: "string", title: "Choose one", oneOf: titled };
    if (!card.allowFreeText) required.push(FORM_FIELDS.choice);
  }
  if (card.allowFreeText)
    properties[FORM_FIELDS.answer] = {
      type: "string",
      title: card.options.length > 0 ? "Or answer in your own words" : "Your answer",
    };
  const lines = [...(problem === undefined ? [] : [`${problem} Please answer again.`, ""]), card.question];
  if (card.context !== undefined && card.context.trim() !== "") lines.push("", card.context.trim());
  lines.push("", card.purpose === "permission" ? "Decline to deny." : "Decline to skip this question.");
  return {
    mode: "form",
    message: lines.join("\n"),
    requestedSchema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
  };
}

/** Read an accepted form's content against the card (the same checks as a typed reply). */
export function readElicitedContent(card: AskCard, content: Record<string, unknown> | undefined): ReplyReading {
  const single = content?.[FORM_FIELDS.choice];
  const several = content?.[FORM_FIELDS.choices];
  const values: unknown[] = [...(single === undefined ? [] : [single]), ...(Array.isArray(several) ? several : [])];
  // The SDK checks a form against its schema, but a client of another make may send anything.
  const stray = values.find((value) => !(typeof value === "string" && /^\d+$/.test(value)));
  if (stray !== undefined)
    return {
      ok: false,
      problem: `The form's choice \`${JSON.stringify(stray)}\` is not an option number; choose from the list.`,
    };
  const numbers = values.map(Number);
  const answer = content?.[FORM_FIELDS.answer];
  return resolveSelection(card, numbers, typeof answer === "string" ? answer : undefined);
}
