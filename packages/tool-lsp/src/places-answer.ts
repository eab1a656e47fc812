import { ToolError } from "@runbound/tool-kit";
import type { LanguageServerSession } from "./language-server-session.js";
import type { OpAnswer } from "./op-types.js";
import { pageHeader, pagePlaces, type PageRequest } from "./paged-places.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";

/** What {@link placesAnswer} needs beyond the page request. */
export interface PlacesAnswerRequest extends PageRequest {
  op: string;
  session: LanguageServerSession;
  /** What a place is, singular and plural. */
  noun: readonly [string, string];
  /** What was asked about, e.g. "`greet` at src/greet.ts:2". */
  target: string;
  /** A clause after "none found", e.g. " (2 malformed entries from the server ignored)". */
  aside?: string;
}

/**
 * The answer of a paged list op (`references`, `implementation`, `incoming_calls`): a header that
 * says which of how many are shown and the next `offset`, then the places grouped by file.
 * @throws ToolError `invalid_input` for an `offset` past the last place.
 */
export async function placesAnswer(request: PlacesAnswerRequest): Promise<OpAnswer> {
  const page = await pagePlaces(request);
  const aside = request.aside ?? "";
  if (page.matched === 0) {
    const where = request.filter === undefined ? "" : ` in \`${request.filter.shown}\``;
    const others = request.filter !== undefined && page.total > 0 ? ` (${page.total} elsewhere; widen or drop \`path\`)` : "";
    return { text: emptyAnswer(request.session, `No ${request.noun[1]}${where} for ${request.target}${others}${aside}`), structured: { op: request.op, total: page.total, matched: 0, offset: request.offset, places: [] } };
  }
  if (page.shown.length === 0) {
    throw new ToolError({ code: "invalid_input", message: `\`offset\` ${request.offset} is past the last of the ${page.matched} ${request.noun[1]} for ${request.target}. Give an \`offset\` below ${page.matched}, or leave it out for the first page.` });
  }
  const header = pageHeader(page, request.noun, request.target, request.filter);
  return {
    text: `${partialNote(request.session)}${header}${aside}:\n${page.rows.join("\n")}`,
    structured: { op: request.op, total: page.total, matched: page.matched, offset: page.offset, ...(page.next === undefined ? {} : { next: page.next }), places: page.shown },
  };
}
