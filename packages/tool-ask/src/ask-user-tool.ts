import { randomUUID } from "node:crypto";
import { defineTool, TargetSpace, textResult, ToolError, type Tool } from "@runbound/tool-kit";
import * as v from "valibot";
import { ASK_LIMITS, checkAskInput } from "./ask-input-limits.js";
import { AskPort, type AskCard } from "./ask-port.js";
import { presentCard } from "./present-card.js";
import { RememberedQuestions } from "./remembered-questions.js";
import { numberedChoices } from "./resolve-selection.js";
import { askUserOutputSchema } from "./ask-user-output.js";

/** Settings of {@link createAskUserTool}. */
export interface AskUserSettings {
  /** How long the operator has to answer, in milliseconds; default 600 000 (10 minutes). */
  timeoutMs?: number;
}

/** The operator's default time to answer. */
export const DEFAULT_ASK_TIMEOUT_MS = 600_000;

// The host's budget of the call outlasts the operator's, so the model reads "no answer" with its
// instruction rather than the host's generic timeout.
const hostBudgetMarginMs = 30_000;

const proceedOnAssumption =
  "State in your next message the assumption you proceed on, then continue; do not ask this question again in this run.";

function duration(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes >= 1) return `${Number(minutes.toFixed(1))} ${minutes === 1 ? "minute" : "minutes"}`;
  return ms >= 1_000 ? `${Math.round(ms / 1_000)} seconds` : `${ms} ms`;
}

const inputSchema = v.strictObject({
  question: v.pipe(
    v.string(),
    v.description(`The question, one sentence ending with "?" (at most ${ASK_LIMITS.question} characters).`),
  ),
  context: v.optional(
    v.pipe(
      v.string(),
      v.description(
        `What the operator needs to know to answer: what you found, what depends on the answer (at most ${ASK_LIMITS.context} characters).`,
      ),
    ),
  ),
  options: v.pipe(
    v.array(
      v.strictObject({
        label: v.pipe(
          v.string(),
          v.description(
            `1–5 words on one line, at most ${ASK_LIMITS.label} characters; not a bare number and not "skip". Put the recommended option first and end its label with " (Recommended)".`,
          ),
        ),
        description: v.optional(
          v.pipe(
            v.string(),
            v.description(`One sentence on what choosing it implies (at most ${ASK_LIMITS.description} characters).`),
          ),
        ),
      }),
    ),
    v.description(
      `The choices, numbered 1.. on the card (at most ${ASK_LIMITS.options}, labels distinct). Empty only when allow_free_text is true.`,
    ),
  ),
  allow_free_text: v.pipe(
    v.boolean(),
    v.description("Whether the operator may answer in their own words instead of (or besides) picking an option."),
  ),
  multi_select: v.pipe(v.boolean(), v.description("Whether several options may be chosen (needs at least 2 options).")),
});

/** The `ask_user` tool, answering within `timeoutMs`. */
export function createAskUserTool(
  settings: AskUserSettings = {},
): Tool<typeof inputSchema, typeof AskPort | typeof TargetSpace> {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new ToolError({
      code: "invalid_plugin",
      message: `The ask timeout \`${String(timeoutMs)}\` is not a positive number of milliseconds; pass one such as \`600000\` (10 minutes).`,
    });
  }
  const remembered = new RememberedQuestions();
  return defineTool({
    name: "ask_user",
    title: "Ask the user",
    tier: "read",
    description: `Ask the human operator one question and wait for the reply (up to ${duration(timeoutMs)}). Use it only when a decision is theirs and no reasonable assumption exists; never to confirm what you can check yourself. The card numbers your options; the operator answers by number(s), an option's label, or (with allow_free_text) their own words. The result lists the chosen numbers and labels and any text. If the operator skips, or nobody answers in time, the result says so: then state the assumption you proceed on and continue, and do not ask the same question again (a repeat is answered "skipped" without reaching the operator).`,
    input: inputSchema,
    requires: [AskPort, TargetSpace],
    parallelSafe: true,
    output: askUserOutputSchema,
    timeoutMs: timeoutMs + hostBudgetMarginMs,
    run: async (input, context) => {
      checkAskInput(input);
      const port = context.resource(AskPort);
      const question = input.question.trim();
      if (remembered.has(port, context.run.id, question)) {
        return textResult(
          `Not asked again: this question was already put to the operator in this run and got no answer. ${proceedOnAssumption}`,
          { status: "skipped", via: "asked before in this run" },
        );
      }
      const card: AskCard = {
        id: randomUUID(),
        runId: context.run.id,
        purpose: "question",
        question,
        ...(input.context === undefined ? {} : { context: input.context }),
        options: input.options.map((option) => ({
          label: option.label.trim(),
          ...(option.description === undefined ? {} : { description: option.description }),
        })),
        allowFreeText: input.allow_free_text,
        multiSelect: input.multi_select,
        space: context.resource(TargetSpace),
      };
      const outcome = await presentCard(port, card, { signal: context.signal, timeoutMs });
      switch (outcome.status) {
        case "answered": {
          const chosen = numberedChoices(outcome.choices);
          const parts = [
            chosen.length > 0 ? `chose ${chosen.join("; ")}` : undefined,
            outcome.text === undefined ? undefined : `wrote: ${JSON.stringify(outcome.text)}`,
          ].filter((part) => part !== undefined);
          return textResult(`The operator ${parts.join(" and ")}.`, {
            status: "answered",
            choices: outcome.choices,
            ...(outcome.text === undefined ? {} : { text: outcome.text }),
          });
        }
        case "skipped":
          remembered.remember(port, context.run.id, question);
          return textResult(`The operator skipped this question (${outcome.via}). ${proceedOnAssumption}`, {
            status: "skipped",
            via: outcome.via,
          });
        case "timed_out":
          remembered.remember(port, context.run.id, question);
          throw new ToolError({
            code: "timeout",
            message: `Nobody answered the question \`${question}\` within ${duration(timeoutMs)}. ${proceedOnAssumption}`,
          });
        case "no_operator":
          throw new ToolError({
            code: "no_operator",
            message: `No operator is attached to \`${card.space!.label}\` to answer \`${question}\`, so it was not asked. Proceed on a stated assumption and do not call ask_user again in this run.`,
          });
        case "withdrawn":
          throw new ToolError({
            code: "cancelled",
            message: `The question \`${question}\` was withdrawn before it was answered (${outcome.reason}).`,
          });
        case "failed":
          throw new ToolError({
            code: "unavailable",
            message: `The question \`${question}\` could not be shown to the operator (${outcome.reason}). Proceed on a stated assumption; ask again only if the operator's channel is back.`,
          });
      }
    },
  });
}
