/**
 * `text` cut to `limit` characters for an error message, saying how long it was: a message quotes
 * what the caller sent, and must stay small whatever that was.
 */
export function shortenForMessage(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // Never end on half of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}
