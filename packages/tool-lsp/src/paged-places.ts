import type { DependencyFiles } from "./dependency-files.js";
import { enclosingSymbol } from "./enclosing-symbol.js";
import type { FileSymbols } from "./enclosing-lookup.js";
import { placePath, showLocations } from "./format-locations.js";
import type { PathFilter } from "./path-filter.js";

/** One place of a list answer (a reference, an implementation, a call). */
export interface Place {
  uri: string;
  /** 0-based line. */
  line: number;
  /** The symbol the place lies in as the answer says it (a call's caller), when the file's document symbols do not say. */
  enclosing?: string;
}

/** What {@link pagePlaces} needs. */
export interface PageRequest {
  workdir: string;
  places: readonly Place[];
  /** Only places under this folder or matching this glob. */
  filter?: PathFilter;
  /** How many of the (filtered) places to skip. */
  offset: number;
  /** The most places on a page, and the most bytes its rows may take. */
  cap: number;
  maxBytes: number;
  /** Texts already read, by absolute path. */
  known?: ReadonlyMap<string, string>;
  /** The run's outside files: their source lines are shown and `source` may read them. */
  dependencies?: DependencyFiles;
  /** Document symbols of the page's files inside the workdir, to name what each place lies in. */
  lookUp?: (paths: readonly string[]) => Promise<ReadonlyMap<string, FileSymbols>>;
}

/** One shown row, the structured twin of the text. */
export interface PagedPlace {
  path: string;
  line: number;
  in?: string;
  source?: string;
}

/** A page of places, grouped by file. */
export interface PlacesPage {
  /** All places the server gave (distinct lines), and those the filter kept. */
  total: number;
  matched: number;
  /** The page: places `offset` to `offset + shown.length` of the matched ones. */
  offset: number;
  shown: PagedPlace[];
  /** The offset of the next page, when there is one. */
  next?: number;
  /** `path` lines, each followed by its places as `  line in Symbol: source`. */
  rows: string[];
}

const byPlace = (
  a: { shown: string; inside: boolean; line: number },
  b: { shown: string; inside: boolean; line: number },
): number =>
  Number(b.inside) - Number(a.inside) || (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0) || a.line - b.line;

/**
 * Filter, sort (files inside the workdir first, by path, then by line), page and group places: each
 * row names the symbol it lies in and shows its source line. Pages stay stable between calls, so
 * `offset` walks them.
 */
export async function pagePlaces(request: PageRequest): Promise<PlacesPage> {
  const seen = new Set<string>();
  const all = request.places
    .filter((place) => {
      const key = `${place.uri}:${place.line}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((place) => ({ ...place, ...placePath(request.workdir, place.uri) }));
  const matched = all.filter((place) => request.filter?.matches(place.shown) ?? true).sort(byPlace);
  const candidates = matched.slice(request.offset, request.offset + request.cap);
  const lookUpPaths = [
    ...new Set(candidates.flatMap((place) => (place.inside && place.path !== undefined ? [place.path] : []))),
  ];
  const symbols =
    request.lookUp === undefined || lookUpPaths.length === 0
      ? new Map<string, FileSymbols>()
      : await request.lookUp(lookUpPaths);
  const known = new Map(request.known);
  for (const [path, file] of symbols) if (file.text !== undefined) known.set(path, file.text);
  const sources = await showLocations(request.workdir, candidates, {
    dedupe: false,
    known,
    ...(request.dependencies === undefined ? {} : { dependencies: request.dependencies }),
  });
  const rows: string[] = [];
  const shown: PagedPlace[] = [];
  let bytes = 0;
  let file: string | undefined;
  for (const [index, place] of candidates.entries()) {
    const source = sources[index]?.source;
    const fileSymbols = place.path === undefined ? undefined : symbols.get(place.path);
    // The document symbols name members with their container (`Square.area`), as for references.
    const enclosing =
      (fileSymbols === undefined ? undefined : enclosingSymbol(fileSymbols.symbols, place.line)) ?? place.enclosing;
    const heading = place.shown === file ? [] : [place.shown];
    const row = `  ${place.line + 1}${enclosing === undefined ? "" : ` in ${enclosing}`}${source === undefined ? "" : `: ${source}`}`;
    const cost = [...heading, row].reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    if (shown.length > 0 && bytes + cost > request.maxBytes) break;
    bytes += cost;
    rows.push(...heading, row);
    file = place.shown;
    shown.push({
      path: place.shown,
      line: place.line + 1,
      ...(enclosing === undefined ? {} : { in: enclosing }),
      ...(source === undefined ? {} : { source }),
    });
  }
  const end = request.offset + shown.length;
  return {
    total: all.length,
    matched: matched.length,
    offset: request.offset,
    shown,
    ...(end < matched.length ? { next: end } : {}),
    rows,
  };
}

/**
 * The header of a page: "4 references", "51–100 of 230 references; next: offset 100", with the
 * filter ("12 of 230 references in `src/extra` (230 in all)"), for `target`.
 */
export function pageHeader(
  page: PlacesPage,
  noun: readonly [string, string],
  target: string,
  filter: PathFilter | undefined,
): string {
  const count = page.matched === 1 ? noun[0] : noun[1];
  const whole = page.offset === 0 && page.next === undefined;
  const range = whole ? `${page.matched}` : `${page.offset + 1}–${page.offset + page.shown.length} of ${page.matched}`;
  const where = filter === undefined ? "" : ` in \`${filter.shown}\` (of ${page.total} in all)`;
  const next = page.next === undefined ? "" : `; next: offset ${page.next}`;
  return `${range} ${count}${where} for ${target}${next}`;
}
