import ignore from "ignore";

/** The rules of one ignore file (`.gitignore`, `.ignore`, `info/exclude`, the global excludes file). */
export interface IgnoreRules {
  /** `true` ignored, `false` re-included by a `!` rule, `undefined` no rule matched. */
  match(relativePath: string, isDirectory: boolean): boolean | undefined;
}

/**
 * Parse the text of an ignore file with the `ignore` package (git's syntax: negation, anchoring,
 * `**`, character classes, directory-only rules, escapes). Matching is case-sensitive, as git's
 * default and ripgrep's are.
 */
export function parseIgnoreFile(text: string): IgnoreRules {
  const rules = ignore({ ignoreCase: false }).add(text);
  return {
    match(relativePath, isDirectory) {
      // The ignore file's own directory: no rule of it can name it.
      if (relativePath === "") return undefined;
      // A trailing slash is how the package tells a directory, so `build/` rules apply to it only.
      const outcome = rules.test(isDirectory ? `${relativePath}/` : relativePath);
      return outcome.ignored ? true : outcome.unignored ? false : undefined;
    },
  };
}
