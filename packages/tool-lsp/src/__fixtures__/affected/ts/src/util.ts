/** A label for a count of things. */
export function label(name: string): string {
  return `${name}!`;
}
