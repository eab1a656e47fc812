/** Why an entry under the search root was not searched. */
export type SkipReason =
  | "too_large"
  | "binary"
  | "not_utf8"
  | "unreadable"
  | "unreadable_directory"
  | "not_regular"
  | "symlink"
  | "outside_workdir";

/** One skipped entry, for the answer: its absolute path, why, and the error code when a call failed. */
export interface SkippedEntry {
  path: string;
  reason: SkipReason;
  /** The `errno` code (`EACCES`, `ELOOP`, …) when the skip comes from a failed file-system call. */
  code?: string;
}

/** How many entries of each reason a search skipped, and the first few by name. */
export class SkipLedger {
  /** How many skipped entries are kept by name. */
  static readonly namedLimit = 10;
  readonly counts: Record<SkipReason, number> = {
    too_large: 0,
    binary: 0,
    not_utf8: 0,
    unreadable: 0,
    unreadable_directory: 0,
    not_regular: 0,
    symlink: 0,
    outside_workdir: 0,
  };
  readonly named: SkippedEntry[] = [];

  add(entry: SkippedEntry): void {
    this.counts[entry.reason] += 1;
    if (this.named.length < SkipLedger.namedLimit) this.named.push(entry);
  }

  /** Every skip, whatever its reason. */
  get total(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }
}

/** The errno code of a failed file-system call, if it has one. */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The errno code as an optional `code` field of a skipped entry. */
export function codeFieldOf(error: unknown): { code?: string } {
  const code = errorCodeOf(error);
  return code === undefined ? {} : { code };
}
