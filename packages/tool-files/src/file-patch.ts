/** What a unified diff says about each file, as `parseUnifiedDiff` reads it and `applyFilePatch` applies it. */

/** One line of a hunk. */
export interface HunkLine {
  kind: " " | "-" | "+";
  text: string;
  /** The line's ending as the patch carries it, or `undefined` when the patch does not tell (no CR anywhere in it). */
  eol?: "\n" | "\r\n";
}

/** One `@@ … @@` section. */
export interface Hunk {
  header: string;
  oldStart: number;
  lines: HunkLine[];
  /** The new side ends without a newline. */
  newMissingNewline: boolean;
}

/**
 * The changes to one file. `null` paths are `/dev/null`: a created or deleted file. Different old and
 * new paths are a rename (or a copy, with `copy`), as git writes them.
 */
export interface FilePatch {
  oldPath: string | null;
  newPath: string | null;
  hunks: Hunk[];
  /** `copy from`/`copy to`: the old file stays. */
  copy?: boolean;
  /** A git mode change (`old mode`/`new mode`), which apply_patch does not apply. */
  newMode?: string;
}
