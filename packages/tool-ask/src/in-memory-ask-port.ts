import type { AskCard, AskOutcome, AskPort } from "./ask-port.js";
import { interpretReply, SKIPPED_BY_OPERATOR } from "./interpret-reply.js";
import { renderCard } from "./render-card.js";
import { withdrawnOutcome } from "./withdrawn-outcome.js";
import { resolveSelection, type ReplyReading } from "./resolve-selection.js";

/** A card waiting for the embedding UI. */
export interface PendingCard {
  card: AskCard;
  /** The card as plain text, for a UI that shows text. */
  text: string;
  /** Why the last reply was refused, to show with the card; absent before any refused reply. */
  problem?: string;
}

/** What the port tells its subscribers. */
export type InMemoryAskEvent =
  | { type: "added"; pending: PendingCard }
  | { type: "reprompted"; pending: PendingCard }
  | { type: "resolved"; card: AskCard; outcome: AskOutcome };

/** Whether a reply resolved its card; when refused, the card stays pending with `problem`. */
export type ReplyResult = { accepted: true } | { accepted: false; problem: string };

/** An {@link AskPort} whose cards an embedding runner's UI lists and resolves. */
export interface InMemoryAskPort extends AskPort {
  /** The cards waiting now, oldest first. */
  pending(): PendingCard[];
  /** Resolve a card with a typed reply, read as the terminal reads it (numbers, label, `skip`, own words). */
  reply(cardId: string, text: string): ReplyResult;
  /** Resolve a card with chosen option numbers (1-based) and/or the operator's own text. */
  answer(cardId: string, answer: { choices: readonly number[]; text?: string }): ReplyResult;
  /** Resolve a card as skipped by the operator. */
  skip(cardId: string): ReplyResult;
  /** Receive every added, re-prompted and resolved card; returns the way to stop. */
  subscribe(listener: (event: InMemoryAskEvent) => void): () => void;
  /** Say whether a human is at the UI now; while false, asking fails at once with `no_operator`. */
  setOperatorPresent(present: boolean): void;
}

interface Waiting {
  pending: PendingCard;
  settle: (outcome: AskOutcome) => void;
}

/** Create an in-memory port (a human is taken as present until told otherwise). */
export function createInMemoryAskPort(): InMemoryAskPort {
  const waiting = new Map<string, Waiting>();
  const listeners = new Set<(event: InMemoryAskEvent) => void>();
  let present = true;

  function emit(event: InMemoryAskEvent): void {
    // A failing UI listener must not keep a card from resolving.
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // ignored on purpose: see above
      }
    }
  }

  function settleWith(cardId: string, read: (card: AskCard) => ReplyReading): ReplyResult {
    const entry = waiting.get(cardId);
    if (entry === undefined)
      return {
        accepted: false,
        problem: `No card \`${cardId}\` is pending; it was answered or withdrawn already. List the pending cards again.`,
      };
    const reading = read(entry.pending.card);
    if (!reading.ok) {
      entry.pending.problem = reading.problem;
      emit({ type: "reprompted", pending: { ...entry.pending } });
      return { accepted: false, problem: reading.problem };
    }
    entry.settle(reading.outcome);
    return { accepted: true };
  }

  return {
    operatorPresent: () => present,
    setOperatorPresent(value) {
      present = value;
    },
    ask(card, { signal }) {
      return new Promise<AskOutcome>((resolve) => {
        const pending: PendingCard = { card, text: renderCard(card) };
        const onAbort = (): void => settle(withdrawnOutcome(signal));
        function settle(outcome: AskOutcome): void {
          if (!waiting.delete(card.id)) return;
          signal.removeEventListener("abort", onAbort);
          emit({ type: "resolved", card, outcome });
          resolve(outcome);
        }
        waiting.set(card.id, { pending, settle });
        signal.addEventListener("abort", onAbort, { once: true });
        emit({ type: "added", pending: { ...pending } });
        if (signal.aborted) onAbort();
      });
    },
    pending: () => [...waiting.values()].map((entry) => ({ ...entry.pending })),
    reply: (cardId, text) => settleWith(cardId, (card) => interpretReply(card, text)),
    answer: (cardId, answer) => settleWith(cardId, (card) => resolveSelection(card, answer.choices, answer.text)),
    skip: (cardId) => settleWith(cardId, () => ({ ok: true, outcome: SKIPPED_BY_OPERATOR })),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
