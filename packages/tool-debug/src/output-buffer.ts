/** One piece of program output as the adapter reported it. */
export interface OutputEntry {
  /** `stdout`, `stderr` or `console` (the adapter's own messages). */
  category: string;
  /** The text, line ends normalised to `\n`. */
  text: string;
}

/** What {@link OutputBuffer.tail} returns: the newest text and what is not in it. */
export interface OutputTail {
  /** The newest output, at most the asked number of characters, oldest first. */
  text: string;
  /** Characters still kept but older than `text`. */
  notShown: number;
  /** Characters dropped from the buffer since the session began (it keeps only the newest). */
  dropped: number;
  /** Every character the program wrote. */
  total: number;
}

/**
 * The program's output of one session, keeping at most `capacity` characters (the newest), and
 * counting what it dropped so an answer can say so.
 */
export class OutputBuffer {
  private entries: OutputEntry[] = [];
  private kept = 0;
  private droppedCharacters = 0;
  private readUpTo = 0;

  constructor(private readonly capacity: number) {}

  /** Add output; lldb runs the debuggee on a pty and sends `\r\n`, normalised here. */
  push(category: string, text: string): void {
    const normalised = text.replace(/\r\n/g, "\n");
    if (normalised.length === 0) return;
    this.entries.push({ category, text: normalised });
    this.kept += normalised.length;
    while (this.kept > this.capacity && this.entries.length > 0) {
      const oldest = this.entries[0]!;
      const excess = this.kept - this.capacity;
      if (oldest.text.length <= excess) {
        this.entries.shift();
        this.kept -= oldest.text.length;
        this.droppedCharacters += oldest.text.length;
      } else {
        oldest.text = oldest.text.slice(excess);
        this.kept -= excess;
        this.droppedCharacters += excess;
      }
    }
  }

  /**
   * The output written since the last call (logpoint lines, prints between two stops), at most the
   * newest `limit` characters of it, and how many more there were; an answer carries it so the model
   * sees it without asking for `output`.
   */
  unread(limit: number): { text: string; notShown: number } {
    const total = this.kept + this.droppedCharacters;
    const fresh = total - this.readUpTo;
    this.readUpTo = total;
    if (fresh <= 0) return { text: "", notShown: 0 };
    const tail = this.tail(Math.min(fresh, limit));
    return { text: tail.text, notShown: Math.max(0, fresh - Math.min(fresh, limit)) };
  }

  /** The newest `limit` characters, stderr lines marked so the model can tell them apart. */
  tail(limit: number): OutputTail {
    const pieces: string[] = [];
    let length = 0;
    for (let index = this.entries.length - 1; index >= 0 && length < limit; index--) {
      const entry = this.entries[index]!;
      const text = entry.category === "stderr" ? entry.text.replace(/^(?=.)/gm, "[stderr] ") : entry.text;
      const piece = text.length > limit - length ? text.slice(text.length - (limit - length)) : text;
      pieces.unshift(piece);
      length += piece.length;
    }
    const shownSource = Math.min(this.kept, length);
    return {
      text: pieces.join(""),
      notShown: Math.max(0, this.kept - shownSource),
      dropped: this.droppedCharacters,
      total: this.kept + this.droppedCharacters,
    };
  }
}
