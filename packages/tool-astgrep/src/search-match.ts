/** A metavariable's capture: its source text and UTF-16 span (`start` = `end` = -1 for an empty `$$$` capture). */
export interface Capture {
  text: string;
  start: number;
  end: number;
  multi: boolean;
}

/** One match. Lines and columns are 0-based; `start`/`end` are UTF-16 offsets, usable with `String.slice`. */
export interface SearchMatch {
  path: string;
  language: string;
  line: number;
  column: number;
  endLine: number;
  start: number;
  end: number;
  text: string;
  captures: Record<string, Capture>;
  /** Set when the match includes a terminator the pattern's context added (see `PatternReading.spannedTerminator`). */
  terminator?: string;
}
