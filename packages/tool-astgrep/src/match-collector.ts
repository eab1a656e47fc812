import type { SgNode } from "@ast-grep/napi";
import { EventLoopSlicer } from "./event-loop-slice.js";
import type { FileMatches } from "./file-matches.js";
import { materialize, sortFound } from "./found-nodes.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import type { SearchMatch } from "./search-match.js";
import { summarizeSyntaxErrors, SyntaxErrorLedger } from "./syntax-error-ledger.js";

function compareMatches(first: SearchMatch, second: SearchMatch): number {
  return first.path < second.path ? -1 : first.path > second.path ? 1 : first.start - second.start;
}

interface ArrivedFile {
  path: string;
  nodes: readonly SgNode[];
  compiled: CompiledPattern;
}

/** A search's count of matches, its first `keep` matches by path and position, and its syntax errors. */
export class MatchCollector {
  total = 0;
  filesWithMatches = 0;
  readonly matches: SearchMatch[] = [];
  /** Files starting with a UTF-8 byte order mark. */
  readonly withBom = new Set<string>();
  readonly syntaxErrors: SyntaxErrorLedger;
  parsed = 0;
  private readonly arrived: ArrivedFile[] = [];
  constructor(
    /** How many matches the answer shows: the first by path and position. */
    readonly keep: number,
    readonly rewriting: boolean,
  ) {
    this.syntaxErrors = new SyntaxErrorLedger(rewriting);
  }

  /**
   * From napi's callback: sort the ERROR nodes out and count the matches, so a callback never holds
   * the thread; {@link settle} does the rest.
   */
  add(path: string, found: readonly SgNode[], compiled: CompiledPattern): void {
    const { matches, errors, missing } = sortFound(found, compiled);
    this.syntaxErrors.add(path, summarizeSyntaxErrors(errors, missing));
    if (matches.length === 0) return;
    this.total += matches.length;
    this.filesWithMatches += 1;
    // Count the rest: a file that sorts after every kept match drops its nodes (and its tree) now.
    if (this.sortsAfterKept(path)) return;
    this.arrived.push({ path, nodes: matches, compiled });
  }

  /** How many of a file's first matches the answer may still need (0 when it sorts after every kept one). */
  wanted(path: string): number {
    return this.sortsAfterKept(path) ? 0 : this.keep;
  }

  /** A whole file's result, its first {@link wanted} matches already materialized. */
  addFile(path: string, found: FileMatches): void {
    this.syntaxErrors.add(path, found.errors);
    if (found.count === 0) return;
    this.total += found.count;
    this.filesWithMatches += 1;
    if (this.sortsAfterKept(path)) return;
    this.keepMatches(found.matches.slice(0, this.keep));
  }

  private sortsAfterKept(path: string): boolean {
    const last = this.matches[this.keep - 1];
    return this.matches.length >= this.keep && last !== undefined && path >= last.path;
  }

  private keepMatches(matches: readonly SearchMatch[]): void {
    this.matches.push(...matches);
    this.matches.sort(compareMatches);
    if (this.matches.length > this.keep) this.matches.length = this.keep;
  }

  /** Materialize the files that arrived, yielding to the event loop and checking the signal as it goes. */
  async settle(signal: AbortSignal | undefined): Promise<void> {
    // Each node costs a few FFI calls, and a file can hold thousands.
    const slicer = new EventLoopSlicer(signal);
    for (let file = this.arrived.shift(); file !== undefined; file = this.arrived.shift()) {
      // Files arrive in parallel, in no order; only a file that sorts before the kept ones pays for
      // materializing its nodes (each text()/range() is an FFI call).
      if (this.sortsAfterKept(file.path)) continue;
      const count = Math.min(file.nodes.length, this.keep);
      const materialized: SearchMatch[] = [];
      for (let index = 0; index < count; index++) {
        materialized.push(materialize(file.nodes[index]!, file.path, file.compiled, this.withBom.has(file.path)));
        await slicer.pause();
      }
      this.keepMatches(materialized);
    }
  }
}
