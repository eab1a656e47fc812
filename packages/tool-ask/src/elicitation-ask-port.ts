import type { AskOutcome, AskPort } from "./ask-port.js";
import { withdrawnOutcome } from "./withdrawn-outcome.js";
import {
  elicitationForm,
  readElicitedContent,
  type ElicitFormRequest,
  type ElicitResponse,
} from "./elicitation-form.js";

/**
 * Shaped like the MCP SDK's `server.elicitInput(params, { signal })`: shows a form to the client's
 * user and resolves with their action. Aborting `signal` must cancel the request.
 */
export type Elicit = (request: ElicitFormRequest, options: { signal: AbortSignal }) => Promise<ElicitResponse>;

/** Settings of {@link createElicitationAskPort}. */
export interface ElicitationAskPortSettings {
  /** Whether the client can answer now; default always (the host attaches the port only while it can). */
  operatorPresent?: () => boolean;
}

// A client that keeps submitting an empty form is not asked for ever.
const maxAttempts = 5;

/**
 * A port over MCP elicitation: each card is a form (see `elicitationForm`). `accept` answers (an
 * invalid form is asked again with the reason, up to 5 times, then counts as skipped); `decline` and
 * `cancel` both skip: the user saw the card and chose not to answer, and an ask that ends with the
 * run or the call is `withdrawn` whatever the client says.
 */
export function createElicitationAskPort(elicit: Elicit, settings: ElicitationAskPortSettings = {}): AskPort {
  return {
    operatorPresent: settings.operatorPresent ?? (() => true),
    async ask(card, { signal }): Promise<AskOutcome> {
      let problem: string | undefined;
      for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
        let response: ElicitResponse;
        try {
          response = await elicit(elicitationForm(card, problem), { signal });
        } catch (error) {
          if (signal.aborted) return withdrawnOutcome(signal);
          return {
            status: "failed",
            reason: `the client's elicitation failed: ${error instanceof Error ? error.message : String(error)}`,
          };
        }
        if (response.action === "decline") return { status: "skipped", via: "the user declined the form" };
        if (response.action === "cancel") return { status: "skipped", via: "the user dismissed the form" };
        const reading = readElicitedContent(card, response.content);
        if (reading.ok) return reading.outcome;
        problem = reading.problem;
      }
      return {
        status: "skipped",
        via: `the form came back without a valid answer ${maxAttempts} times (last: ${problem})`,
      };
    },
  };
}
