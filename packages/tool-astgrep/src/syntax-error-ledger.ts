import type { SgNode } from "@ast-grep/napi";

/** Where a file's first ERROR or MISSING node is: 0-based line and column (UTF-16), and what the parser saw. */
export interface SyntaxErrorSite {
  path: string;
  line: number;
  column: number;
  /** `ERROR`: code the grammar could not read; `MISSING`: a token it assumed (a `)` never written). */
  kind: "ERROR" | "MISSING";
  /** ERROR: the misparsed code with the token before it on the same line, one line, clipped (`out A`); MISSING: the assumed token. */
  near: string;
}

/** A span the grammar could not parse (an ERROR node), in UTF-16 offsets. */
export interface ErrorRegion {
  start: number;
  end: number;
  line: number;
}

const nearLimit = 40;

function nearText(node: SgNode, line: number): string {
  // An ERROR node is often one token (`A` in `interface X<out A>`); the token before it on the same
  // line is what a reader recognises.
  const before = node.prev();
  const text =
    before !== null && before.range().end.line === line && before.range().start.line === line
      ? `${before.text()} ${node.text()}`
      : node.text();
  const firstLine = text.split("\n")[0]!.replace(/\s+/g, " ").trim();
  return firstLine.length > nearLimit ? `${firstLine.slice(0, nearLimit - 1)}…` : firstLine;
}

/** What one parsed file's syntax errors come to: its first site and every ERROR region (kept with a cached tree). */
export interface FileSyntaxErrors {
  site: Omit<SyntaxErrorSite, "path">;
  regions: readonly ErrorRegion[];
}

/** Summarize a file's ERROR nodes and MISSING (zero-width) nodes, or `undefined` when it has neither. */
export function summarizeSyntaxErrors(
  errors: readonly SgNode[],
  missing: readonly SgNode[],
): FileSyntaxErrors | undefined {
  if (errors.length === 0 && missing.length === 0) return undefined;
  const regions = errors.map((node) => {
    const range = node.range();
    return { start: range.start.index, end: range.end.index, line: range.start.line };
  });
  // napi hands the nodes over in pre-order, so each list's first node is its earliest.
  const firstError = errors[0]?.range().start;
  const firstMissing = missing[0]?.range().start;
  const site: Omit<SyntaxErrorSite, "path"> =
    firstError !== undefined && (firstMissing === undefined || firstError.index <= firstMissing.index)
      ? { line: firstError.line, column: firstError.column, kind: "ERROR", near: nearText(errors[0]!, firstError.line) }
      : { line: firstMissing!.line, column: firstMissing!.column, kind: "MISSING", near: String(missing[0]!.kind()) };
  return { site, regions };
}

/**
 * The files of one search whose parse has ERROR nodes: how many, the first few by path with their
 * first ERROR, and — when asked, for a rewrite — every ERROR region of each file.
 */
export class SyntaxErrorLedger {
  /** How many files are kept by name. */
  static readonly namedLimit = 10;
  files = 0;
  /** The first files by path, at most {@link namedLimit}, sorted. */
  readonly named: SyntaxErrorSite[] = [];
  /** Every ERROR region per file, when the ledger was created with `keepRegions`. */
  readonly regions = new Map<string, readonly ErrorRegion[]>();

  constructor(private readonly keepRegions: boolean) {}

  /** Record a file's syntax errors (see {@link summarizeSyntaxErrors}). */
  add(path: string, summary: FileSyntaxErrors | undefined): void {
    if (summary === undefined) return;
    this.files += 1;
    if (this.keepRegions) this.regions.set(path, summary.regions);
    const last = this.named[SyntaxErrorLedger.namedLimit - 1];
    if (last !== undefined && path >= last.path) return;
    const index = this.named.findIndex((entry) => entry.path > path);
    this.named.splice(index === -1 ? this.named.length : index, 0, { path, ...summary.site });
    if (this.named.length > SyntaxErrorLedger.namedLimit) this.named.length = SyntaxErrorLedger.namedLimit;
  }
}
