import { CodeActionRequest, type CodeAction, type Command, type Diagnostic } from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import type { OpAnswer, PositionedRequest } from "./op-types.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";
import { requireCapability } from "./require-capability.js";

function describeAction(item: CodeAction | Command): string | undefined {
  if (typeof item?.title !== "string") return undefined;
  if ("command" in item && typeof item.command === "string") return `${item.title} (command)`;
  const action = item as CodeAction;
  const kind = typeof action.kind === "string" && action.kind.length > 0 ? ` [${action.kind}]` : "";
  const preferred = action.isPreferred === true ? " (preferred)" : "";
  const disabled = typeof action.disabled?.reason === "string" ? ` — disabled: ${action.disabled.reason}` : "";
  return `${action.title}${kind}${preferred}${disabled}`;
}

/**
 * Answer `code_actions`: the fixes and refactorings the server offers at the symbol, with the
 * diagnostics it published for that line as context (quick fixes need them). Listed, never applied.
 */
export async function codeActionsOp(
  request: PositionedRequest,
  symbolLength: number,
  signal: AbortSignal,
): Promise<OpAnswer> {
  const session = request.document.session;
  requireCapability(session, "codeActionProvider", CodeActionRequest.method);
  const start = request.params.position;
  const range = { start, end: { line: start.line, character: start.character + symbolLength } };
  const onLine = (session.published.latest(request.document.uri)?.diagnostics ?? []).filter(
    (diagnostic: Diagnostic) => diagnostic.range?.start?.line === start.line,
  );
  const answer = await session.request(
    CodeActionRequest.method,
    (connection, token) =>
      connection.sendRequest(
        CodeActionRequest.type,
        { textDocument: request.params.textDocument, range, context: { diagnostics: onLine, triggerKind: 1 } },
        token,
      ),
    signal,
  );
  const rows = (Array.isArray(answer) ? answer : [])
    .map(describeAction)
    .filter((row): row is string => row !== undefined);
  const target = `\`${request.symbol}\` at ${request.document.shown}:${request.line}`;
  if (rows.length === 0)
    return {
      text: emptyAnswer(session, `No code actions offered for ${target}`),
      structured: { op: "code_actions", total: 0, actions: [] },
    };
  const bounded = boundedRows({
    rows,
    total: rows.length,
    cap: 50,
    maxBytes: 8 * 1024,
    noun: ["code action", "code actions"],
    narrow: "give a more specific `symbol`",
  });
  return {
    text: `${partialNote(session)}${bounded.header.replace(/\.$/, "")} for ${target} (listed only; make the change with an edit tool):\n${bounded.shown.map((row) => `- ${row}`).join("\n")}`,
    structured: { op: "code_actions", total: rows.length, actions: bounded.shown },
  };
}
