import type { AskPort } from "./ask-port.js";

// Runs a port remembers questions for; past it the oldest run is forgotten, so an embedding runner
// that keeps one port for thousands of runs does not grow without bound.
const maxRunsPerPort = 256;

/** The same question, whatever its spacing or case. */
function questionKey(question: string): string {
  return question.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Questions the operator skipped (or let time out) per port and run, so a repeat is answered
 * "skipped" without reaching the operator again (DESIGN §4 ask_user).
 */
export class RememberedQuestions {
  private readonly byPort = new WeakMap<AskPort, Map<string, Set<string>>>();

  /** Remember `question` as not to be asked again in `runId` on `port`. */
  remember(port: AskPort, runId: string, question: string): void {
    let runs = this.byPort.get(port);
    if (runs === undefined) this.byPort.set(port, (runs = new Map()));
    let questions = runs.get(runId);
    if (questions === undefined) {
      runs.set(runId, (questions = new Set()));
      if (runs.size > maxRunsPerPort) runs.delete(runs.keys().next().value!);
    }
    questions.add(questionKey(question));
  }

  /** Whether `question` was remembered for `runId` on `port`. */
  has(port: AskPort, runId: string, question: string): boolean {
    return this.byPort.get(port)?.get(runId)?.has(questionKey(question)) === true;
  }
}
