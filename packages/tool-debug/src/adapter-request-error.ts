import { ToolError } from "@runbound/tool-kit";
import { DapNoAnswer, DapRequestFailed } from "./dap-connection.js";

// What to do next after the adapter refused a request, by DAP command.
const HINTS: Readonly<Record<string, string>> = {
  evaluate:
    "Check the expression: it is evaluated in the program's language in the frame `frame_id` names (default the top frame; op `stack` lists the frames and their variables).",
  variables:
    "Pass a reference from the latest `scopes` or `variables` answer: references last only until the program runs again.",
  scopes: "Pass a frame_id from the latest `stack` answer: frame ids last only until the program runs again.",
  stackTrace: "Pass a thread_id from op `threads`, or leave it out for the thread that stopped.",
};

/**
 * The tool's answer to a failed DAP request: the adapter's refusal (a bad expression, a stale
 * reference) is the caller's to fix, not a bug in the tool; an adapter that does not answer is a
 * timeout. Anything else is returned as it is.
 */
export function requestErrorAsToolError(error: unknown): unknown {
  if (error instanceof DapRequestFailed) {
    return new ToolError({
      code: "invalid_input",
      message: `The debug adapter refused \`${error.command}\`: ${error.adapterMessage.trim()} ${HINTS[error.command] ?? "Check the op's arguments and the session's state (op `status`)."}`,
      cause: error,
    });
  }
  if (error instanceof DapNoAnswer) {
    return new ToolError({
      code: error.why === "timeout" ? "timeout" : "unavailable",
      message: `${error.message} Call op \`status\` to see the session's state, or \`terminate\` and launch again.`,
      cause: error,
    });
  }
  return error;
}
