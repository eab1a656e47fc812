// Never cut between the two halves of a surrogate pair: the result would not be valid text.
function isHighSurrogate(character: string): boolean {
  return /[\ud800-\udbff]/.test(character);
}

/** The first `limit` characters of `text`, with `…` when something was cut. */
export function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, end)}…`;
}

/** The last `limit` characters of `text`, with `…` in front when something was cut (an agent's answer comes last). */
export function tailOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const start = isHighSurrogate(text.charAt(text.length - limit - 1)) ? text.length - limit + 1 : text.length - limit;
  return `…${text.slice(start)}`;
}
