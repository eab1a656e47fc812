import { ToolError } from "@runbound/tool-kit";
import { dependencyFiles } from "./dependency-files.js";
import { lookUpFileSymbols } from "./enclosing-lookup.js";
import type { ListOptions, OpAnswer, PositionedRequest } from "./op-types.js";
import { pageHeader, pagePlaces, type Place } from "./paged-places.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";

/** The most references, implementations or calls on a page (DESIGN §4 lsp). */
export const REFERENCES_CAP = 50;
const maxRowsBytes = 14 * 1024;

/** What a paged list op found at a position. */
export interface FoundPlaces {
  op: string;
  /** What a place is, singular and plural. */
  noun: readonly [string, string];
  places: readonly Place[];
  /** A clause after the header, e.g. " (2 malformed entries from the server ignored)". */
  aside?: string;
}

/**
 * The answer of a paged list op (`references`, `implementation`, `incoming_calls`) at a position: a
 * header that says which of how many are shown and the next `offset`, then the places grouped by
 * file, each in its enclosing symbol.
 * @throws ToolError `invalid_input` for an `offset` past the last place.
 */
export async function placesAnswer(
  at: PositionedRequest,
  list: ListOptions,
  signal: AbortSignal,
  found: FoundPlaces,
): Promise<OpAnswer> {
  const session = at.document.session;
  const target = `\`${at.symbol}\` at ${at.document.shown}:${at.line}`;
  const page = await pagePlaces({
    workdir: at.workdir,
    places: found.places,
    ...list,
    cap: REFERENCES_CAP,
    maxBytes: maxRowsBytes,
    known: new Map([[at.document.path, at.document.text]]),
    lookUp: (paths) => lookUpFileSymbols(at.supervisor, at.workdir, paths, signal, session),
    dependencies: dependencyFiles(at.supervisor),
  });
  const aside = found.aside ?? "";
  if (page.matched === 0) {
    const where = list.filter === undefined ? "" : ` in \`${list.filter.shown}\``;
    const others =
      list.filter !== undefined && page.total > 0 ? ` (${page.total} elsewhere; widen or drop \`path\`)` : "";
    return {
      text: emptyAnswer(session, `No ${found.noun[1]}${where} for ${target}${others}${aside}`),
      structured: { op: found.op, total: page.total, matched: 0, offset: list.offset, places: [] },
    };
  }
  if (page.shown.length === 0) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`offset\` ${list.offset} is past the last of the ${page.matched} ${found.noun[1]} for ${target}. Give an \`offset\` below ${page.matched}, or leave it out for the first page.`,
    });
  }
  const header = pageHeader(page, found.noun, target, list.filter);
  return {
    text: `${partialNote(session)}${header}${aside}:\n${page.rows.join("\n")}`,
    structured: {
      op: found.op,
      total: page.total,
      matched: page.matched,
      offset: page.offset,
      ...(page.next === undefined ? {} : { next: page.next }),
      places: page.shown,
    },
  };
}
