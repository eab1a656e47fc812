/** What {@link boundedRows} needs. */
export interface BoundedRowsRequest {
  /** The rows, already formatted, in the order to show. */
  rows: readonly string[];
  /** How many there are in all (at least `rows.length`; a server may have answered more than were formatted). */
  total: number;
  /** The most rows to show. */
  cap: number;
  /** The most bytes the rows may take together. */
  maxBytes: number;
  /** How to narrow the request, e.g. "Give a longer `query`". */
  narrow: string;
  /** What a row is, singular and plural, e.g. ["reference", "references"]. */
  noun: readonly [string, string];
}

/**
 * Rows within a count and a byte bound, with a header that always says how many there are: "12
 * references" or "50 of 212 references (… how to narrow)". Never a silent cut.
 */
export function boundedRows(request: BoundedRowsRequest): { header: string; shown: string[] } {
  const shown: string[] = [];
  let bytes = 0;
  for (const row of request.rows.slice(0, request.cap)) {
    bytes += Buffer.byteLength(row) + 1;
    if (bytes > request.maxBytes) break;
    shown.push(row);
  }
  const noun = request.total === 1 ? request.noun[0] : request.noun[1];
  const header =
    shown.length < request.total
      ? `${shown.length} of ${request.total} ${noun} shown; ${request.narrow}.`
      : `${request.total} ${noun}.`;
  return { header, shown };
}
