import type { Readable, Writable } from "node:stream";
import type { AskCard, AskOutcome, AskPort } from "./ask-port.js";
import { interpretReply } from "./interpret-reply.js";
import { LineReader } from "./line-reader.js";
import { renderCard } from "./render-card.js";
import { numberedChoices } from "./resolve-selection.js";
import { abortReasonText, withdrawnOutcome } from "./withdrawn-outcome.js";

/** Settings of {@link createTerminalAskPort}. */
export interface TerminalAskPortSettings {
  /** Where the operator types, e.g. `process.stdin` when it is a TTY. Read only while a card is shown. */
  input: Readable;
  /** Where cards are written, e.g. `process.stderr` or `process.stdout` when it is a TTY. */
  output: Writable;
  /**
   * The reader of `input`, when the host reads the same terminal itself between cards (a session
   * reading requests line by line): sharing it keeps a line typed ahead for whichever reads next.
   */
  lines?: LineReader;
}

/** The outcome of Ctrl-D (end of input) on a shown card. */
const endOfInput: AskOutcome = { status: "skipped", via: "the operator ended the input (Ctrl-D)" };

function describeChoice(outcome: Extract<AskOutcome, { status: "answered" }>): string {
  return [
    ...numberedChoices(outcome.choices),
    ...(outcome.text === undefined ? [] : [JSON.stringify(outcome.text)]),
  ].join(", ");
}

/**
 * A port for a terminal: it writes the card, reads a line, and re-asks with the reason after an
 * invalid reply. Cards are shown one at a time, in the order asked. The terminal stays in its normal
 * (cooked) mode, so line editing and Ctrl-C are the terminal's own. Ctrl-D on a shown card skips it
 * and ends the operator's input: later cards fail at once with `no_operator`. A withdrawn card is
 * marked as such and the port stops reading.
 */
export function createTerminalAskPort(settings: TerminalAskPortSettings): AskPort {
  const reader = settings.lines ?? new LineReader(settings.input);
  let turn: Promise<unknown> = Promise.resolve();
  const write = (text: string): void => {
    settings.output.write(text);
  };

  async function show(card: AskCard, signal: AbortSignal): Promise<AskOutcome> {
    if (signal.aborted) return { status: "withdrawn", reason: "the asker stopped waiting before the card was shown" };
    if (reader.ended) return endOfInput;
    write(`\n${renderCard(card)}\n`);
    for (;;) {
      write("> ");
      const read = await reader.readLine(signal);
      if (read.kind === "aborted") {
        const withdrawn = withdrawnOutcome(signal);
        write(`\n(Withdrawn: ${abortReasonText(signal.reason)}.)\n`);
        return withdrawn;
      }
      if (read.kind === "end") {
        write("\n(Input ended: skipped.)\n");
        return endOfInput;
      }
      const reading = interpretReply(card, read.text);
      if (reading.ok) {
        write(
          reading.outcome.status === "answered" ? `(Answered: ${describeChoice(reading.outcome)}.)\n` : "(Skipped.)\n",
        );
        return reading.outcome;
      }
      write(`${reading.problem} Try again.\n`);
    }
  }

  return {
    operatorPresent: () => !reader.ended,
    ask(card, { signal }) {
      const shown = turn.then(() => show(card, signal));
      turn = shown.catch(() => undefined);
      return shown;
    },
  };
}
