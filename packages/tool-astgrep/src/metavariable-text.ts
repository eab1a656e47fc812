/** A metavariable as written in a pattern: `$NAME`, `$$NAME`, `$$$NAME` (not glued to a word before it). */
export const metavariablePattern = /(?<![\w$])(\${1,3})([A-Z_][A-Z0-9_]*)/g;

/** The metavariables a snippet captures (names starting with `_` capture nothing, like `$_`). */
export function metavariableNames(snippet: string): { single: string[]; multi: string[] } {
  const single = new Set<string>();
  const multi = new Set<string>();
  for (const match of snippet.matchAll(metavariablePattern)) {
    const name = match[2]!;
    if (name.startsWith("_")) continue;
    (match[1]!.length === 3 ? multi : single).add(name);
  }
  return { single: [...single], multi: [...multi] };
}

/**
 * The text ast-grep parses for a pattern: a run of `$` becomes the grammar's expando character only
 * where it starts a metavariable (`$A`, `$$A`, `$$$A`, `$_`) or is the anonymous `$$$`; any other `$`
 * (a literal dollar, as in Python `r'\\$'`) stays. This is ast-grep-language's `pre_process_pattern`.
 */
export function substituteMetavariables(text: string, expandoChar: string): string {
  if (expandoChar === "$") return text;
  return text.replace(/\$+/g, (run: string, offset: number) => {
    const next = text.charAt(offset + run.length);
    return /^[A-Z_]$/.test(next) || run.length === 3 ? expandoChar.repeat(run.length) : run;
  });
}
