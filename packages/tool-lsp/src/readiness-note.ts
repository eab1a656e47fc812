import type { LanguageServerSession } from "./language-server-session.js";

function describeWork(session: LanguageServerSession): string | undefined {
  const work = session.progress.current();
  if (work.length === 0) return undefined;
  return work
    .map(
      (item) =>
        `${item.title}${item.message === undefined ? "" : `: ${item.message}`}${item.percentage === undefined ? "" : ` ${item.percentage}%`}`,
    )
    .join("; ");
}

/** A first line for answers given while the server is still indexing, or "" when it is not. */
export function partialNote(session: LanguageServerSession): string {
  const work = describeWork(session);
  return work === undefined
    ? ""
    : `Note: \`${session.spec.id}\` is still indexing (${work}); this answer may be partial.\n`;
}

/**
 * The text for an empty answer. An empty list from a server that is still indexing is not "none":
 * say so, so the model retries instead of concluding there is nothing (a peer's most reported bug).
 */
export function emptyAnswer(session: LanguageServerSession, nothing: string): string {
  const work = describeWork(session);
  if (work !== undefined) {
    return `${nothing} so far, but \`${session.spec.id}\` is still indexing (${work}), so this may be incomplete. Try again when \`lsp\` \`status\` says running.`;
  }
  return `${nothing}.`;
}
