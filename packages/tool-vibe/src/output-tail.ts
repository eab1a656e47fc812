/**
 * The last `limit` characters of a growing text (a worker's output): an agent writes its answer
 * last, so the end is what matters, and a chatty worker must not grow the roster without bound.
 */
export class OutputTail {
  private text = "";
  private dropped = 0;

  /** @param limit - how many characters to keep (at least 1). */
  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`OutputTail limit \`${limit}\` is not valid; give a whole number of at least 1.`);
  }

  /** Add text at the end, dropping from the front what no longer fits. */
  append(chunk: string): void {
    this.text += chunk;
    const excess = this.text.length - this.limit;
    if (excess > 0) {
      this.text = this.text.slice(excess);
      this.dropped += excess;
    }
  }

  /** Replace everything with `text` (a run's final result), kept to the limit the same way. */
  replace(text: string): void {
    this.text = "";
    this.dropped = 0;
    this.append(text);
  }

  /** The kept text. */
  get value(): string {
    return this.text;
  }

  /** How many characters were dropped from the front. */
  get droppedChars(): number {
    return this.dropped;
  }
}
