/** `text` cut to `limit` characters, saying how many were cut. */
export function cutText(text: string, limit: number): { text: string; cut: number } {
  if (text.length <= limit) return { text, cut: 0 };
  return { text: `${text.slice(0, limit)}…`, cut: text.length - limit };
}

/**
 * Join rows under a budget of characters: rows are added while they fit, and the answer says how
 * many did not (an answer stays under the host's 16 KB cap whatever the adapter sent).
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
