import { defineResource, type TargetSpaceInfo } from "@runbound/tool-kit";

/** One choice on a card. */
export interface AskOption {
  /** What the operator picks, by its number or by this exact text. */
  label: string;
  /** One line on what the choice implies. */
  description?: string;
}

/** What a port shows a human: a question with numbered options. */
export interface AskCard {
  /** Unique per card; an embedding UI resolves the card by it. */
  id: string;
  /** The run that asks. */
  runId: string;
  /** `question` from the model (`ask_user`) or "may I …?" from the host (a permission prompt). */
  purpose: "question" | "permission";
  /** One sentence. */
  question: string;
  /** Background the operator needs to answer. */
  context?: string;
  /** Numbered from 1 in this order. May be empty when free text is allowed. */
  options: readonly AskOption[];
  /** Whether a reply that is no option is taken as the operator's own answer. */
  allowFreeText: boolean;
  /** Whether several options may be chosen. */
  multiSelect: boolean;
  /** Where the card is shown, when the run says. */
  space?: TargetSpaceInfo;
}

/** An option the operator chose. */
export interface AskChoice {
  /** 1-based, as shown on the card. */
  number: number;
  label: string;
}

/**
 * How a card ended.
 * - `answered`: the operator chose options and/or wrote text.
 * - `skipped`: the operator saw the card and chose not to answer (`via` says how).
 * - `timed_out`: no answer within the asker's budget.
 * - `withdrawn`: the asker stopped waiting (the run ended or the call was cancelled); the card is gone.
 * - `failed`: the port could not show the card (its channel broke).
 */
export type AskOutcome =
  | { status: "answered"; choices: AskChoice[]; text?: string }
  | { status: "skipped"; via: string }
  | { status: "timed_out" }
  | { status: "withdrawn"; reason: string }
  | { status: "failed"; reason: string };

/** Options of one {@link AskPort.ask}. */
export interface AskOptions {
  /**
   * Aborted when the asker stops waiting (timeout, run ended, call cancelled). The port must then
   * remove the card, stop reading input for it, and resolve `withdrawn` promptly.
   */
  signal: AbortSignal;
}

/**
 * A human surface that answers cards: a terminal, an MCP client's elicitation form, an embedding
 * runner's UI. Hosts attach one under {@link AskPort} only when a human is there; it presents one
 * card per {@link ask} and never resolves on its own behalf (no auto-pick).
 */
export interface AskPort {
  /** False when no human can answer now (input closed, client gone): asking then fails at once. */
  operatorPresent(): boolean;
  /** Show the card; re-ask, saying why, on an invalid reply; resolve with how it ended. */
  ask(card: AskCard, options: AskOptions): Promise<AskOutcome>;
}

/** The resource key of the run's ask port. */
export const AskPort = defineResource<AskPort>(
  "ask.port",
  "Where questions and permission prompts reach a human (a terminal, an MCP client, a runner's UI).",
);
