import { DEFAULT_MAX_MESSAGE_BYTES, type OversizedAnswer, type OversizedMessage } from "@runbound/runner-adapter/mcp";

const outcomes: Record<OversizedAnswer, string> = {
  request_refused: "answered with an error; the run goes on",
  response_failed: "the server's request it answered fails with that reason; the run goes on",
  dropped: "it had no id to answer under, so it was dropped; the run goes on",
};

/** The stderr line of `runbound mcp` for a message over the stdio limit: which one, how large, what was done. */
export function describeOversizedMessage(message: OversizedMessage, answer: OversizedAnswer): string {
  const which = [
    message.method === undefined ? undefined : `\`${message.method}\``,
    message.id === undefined ? undefined : `id ${JSON.stringify(message.id)}`,
  ]
    .filter((part) => part !== undefined)
    .join(", ");
  return `runbound mcp: refused a message of ${message.bytes.toLocaleString("en-US")} bytes${which === "" ? "" : ` (${which})`}, over the limit of ${DEFAULT_MAX_MESSAGE_BYTES.toLocaleString("en-US")} bytes per message; ${outcomes[answer]}.`;
}
