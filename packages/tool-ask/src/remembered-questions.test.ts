import { describe, expect, it } from "vitest";
import { createInMemoryAskPort } from "./in-memory-ask-port.js";
import { RememberedQuestions } from "./remembered-questions.js";

describe("RememberedQuestions", () => {
  it("remembers a question per port and run, whatever its spacing or case", () => {
    const memory = new RememberedQuestions();
    const port = createInMemoryAskPort();
    memory.remember(port, "run-1", "Which  database?");
    expect(memory.has(port, "run-1", " which database? ")).toBe(true);
    expect(memory.has(port, "run-1", "Which cache?")).toBe(false);
    expect(memory.has(port, "run-2", "Which database?")).toBe(false);
    expect(memory.has(createInMemoryAskPort(), "run-1", "Which database?")).toBe(false);
    expect(memory.has(port, "run-1", "Which data base?")).toBe(false);
    memory.remember(port, "run-1", "Which cache?");
    expect(memory.has(port, "run-1", "Which database?")).toBe(true);
  });

  it("forgets the oldest run past 256 runs on one port", () => {
    const memory = new RememberedQuestions();
    const port = createInMemoryAskPort();
    for (let run = 0; run <= 256; run += 1) memory.remember(port, `run-${run}`, "Q?");
    expect(memory.has(port, "run-0", "Q?")).toBe(false);
    expect(memory.has(port, "run-1", "Q?")).toBe(true);
    expect(memory.has(port, "run-256", "Q?")).toBe(true);
  });
});
