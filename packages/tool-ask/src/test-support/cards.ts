import type { AskCard } from "../ask-port.js";

/** A card with three options; override what a test is about. */
export function sampleCard(overrides: Partial<AskCard> = {}): AskCard {
  return {
    id: "card-1",
    runId: "run-1",
    purpose: "question",
    question: "Which database?",
    options: [
      { label: "Postgres", description: "The one in production." },
      { label: "SQLite" },
      { label: "Redis, as a cache" },
    ],
    allowFreeText: false,
    multiSelect: false,
    ...overrides,
  };
}
