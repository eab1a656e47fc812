// Never cut between the two halves of a surrogate pair: the result would not be valid text.
function isHighSurrogate(character: string): boolean {
  return /[\ud800-\udbff]/.test(character);
}

/** Where a cut to the first `limit` UTF-16 units ends: one unit earlier when it would split a surrogate pair. */
function headEnd(text: string, limit: number): number {
  return isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
}

/** The first `limit` characters of `text`, with `…` when something was cut. */
export function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, headEnd(text, limit))}…`;
}

/** The last `limit` characters of `text`, with `…` in front when something was cut (an agent's answer comes last). */
export function tailOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const start = isHighSurrogate(text.charAt(text.length - limit - 1)) ? text.length - limit + 1 : text.length - limit;
  return `…${text.slice(start)}`;
}

/** {@link headOf}, saying how many characters were cut. */
export function cutText(text: string, limit: number): { text: string; cut: number } {
  if (text.length <= limit) return { text, cut: 0 };
  const end = headEnd(text, limit);
  return { text: `${text.slice(0, end)}…`, cut: text.length - end };
}

/**
 * Join rows under a budget of characters: rows are added while they fit, and the answer says how
 * many did not (an answer stays under the host's 16 KB cap whatever a program sent).
 */
export function joinWithinBudget(rows: readonly string[], budget: number): { text: string; shown: number } {
  const kept: string[] = [];
  let used = 0;
  for (const row of rows) {
    if (used + row.length + 1 > budget) break;
    kept.push(row);
    used += row.length + 1;
  }
  return { text: kept.join("\n"), shown: kept.length };
}
