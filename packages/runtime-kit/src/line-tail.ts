/**
 * The last `limit` lines of a stream of text chunks (a child's stderr), so a crash report can quote
 * what the program said last without keeping everything it ever wrote.
 */
export class LineTail {
  private readonly lines: string[] = [];
  private partial = "";

  /** @param limit - how many complete lines to keep (at least 1); each line is cut to `maxLineLength`. */
  constructor(
    private readonly limit: number,
    private readonly maxLineLength = 500,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`LineTail limit \`${limit}\` is not valid; give a whole number of at least 1.`);
  }

  /** Add a chunk; a line split across chunks is joined before it is kept. */
  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop()!;
    // A program that never writes a newline must not grow the partial line without bound.
    if (this.partial.length > this.maxLineLength) {
      parts.push(this.partial);
      this.partial = "";
    }
    for (const line of parts) this.keep(line);
  }

  /** The kept lines, oldest first, including an unfinished last line (never longer than the limit: push keeps it short). */
  snapshot(): string[] {
    if (this.partial.length === 0) return [...this.lines];
    return [...this.lines.slice(Math.max(0, this.lines.length - this.limit + 1)), this.partial];
  }

  private keep(line: string): void {
    this.lines.push(line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength - 1)}…` : line);
    if (this.lines.length > this.limit) this.lines.shift();
  }
}
