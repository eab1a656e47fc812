import type { FileResult, PathSearchResult, QueryInput, TreeStore } from "@runbound/astgrep-engine";
import { throwIfAborted } from "./abort-error.js";
import { nativeEngine, sharedTreeStore } from "./engine-binding.js";
import type { CachedTree } from "./cached-tree.js";
import type { EngineTree } from "./engine-tree.js";
import { EventLoopSlicer } from "./event-loop-slice.js";
import type { FileMatches } from "./file-matches.js";
import type { MatchCollector } from "./match-collector.js";
import { treeBytesPerSourceByte, type ParseCache } from "./parse-cache.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import { patternKey } from "./pattern-key.js";
import type { SearchMatch } from "./search-match.js";
import type { SkipLedger, SkipReason } from "./skip-ledger.js";

/**
 * A file bigger than this is a bundle: its tree takes about 30 times its size while it is matched, so
 * the engine never parses two at once (two side by side doubled the peak of a search of 4,500
 * JavaScript files), while the other threads go on with smaller files.
 */
const bundleBytes = 512 * 1024;
/** Kept trees matched per engine call: the signal is checked between calls. */
const treesPerCall = 256;

/** The engine counts matches to materialize in 32 bits; this many means all of them (a rewrite). */
const allMatches = 0xffff_ffff;

/** How many of a file's first matches to materialize. */
function wantedOf(collector: MatchCollector, path: string): number {
  return Math.min(collector.wanted(path), allMatches);
}

function queryOf(compiled: CompiledPattern, rewriting: boolean): QueryInput {
  const { reading, matcher, captures, language } = compiled;
  return {
    language: language.napiLang,
    config: matcher,
    single: [...captures.single],
    multi: [...captures.multi],
    ...(compiled.transformed === undefined ? {} : { transformed: [...compiled.transformed] }),
    ...(reading.anyKind === true ? {} : { readingKind: reading.kind }),
    rewriting,
  };
}

/** The engine's answer for one file, in the shape the napi path gives. */
function fileMatches(result: FileResult, path: string, compiled: CompiledPattern, bom: boolean): FileMatches {
  const terminator = compiled.reading.spannedTerminator;
  const matches = result.matches.map((match): SearchMatch => ({
    ...(terminator === undefined ? {} : { terminator }),
    path,
    language: compiled.language.id,
    line: match.line,
    // The engine counts a UTF-8 BOM as a character of the first line, as napi does; editors do not.
    column: match.column - (bom && match.line === 0 ? 1 : 0),
    endLine: match.endLine,
    start: match.start,
    end: match.end,
    text: match.text,
    captures: Object.fromEntries(match.captures.map(({ name, ...capture }) => [name, capture])),
  }));
  return { count: result.count, matches, errors: result.errors ?? undefined };
}

/** Paths in the order answers list them (the collector's order), which the engine's first matches follow. */
function byPath(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

/**
 * One language's search on the native engine: it reads, checks, parses and matches the files itself
 * on its threads, in one call per search; with a parse cache their trees stay in the engine while
 * the cache has room.
 */
export class NativeSearch {
  private readonly query: QueryInput;
  private readonly key: string;
  private readonly store: TreeStore;

  constructor(
    private readonly compiled: CompiledPattern,
    private readonly collector: MatchCollector,
    private readonly cache: ParseCache | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.query = queryOf(compiled, collector.rewriting);
    this.key = patternKey(compiled, collector.rewriting);
    this.store = cache?.engineStore() ?? sharedTreeStore();
  }

  /**
   * Search files not in the cache: each is refused, read but left unparsed (it lacks a literal of the
   * pattern), or parsed and matched. Refusals go to `skipped`, as the host's own reader words them.
   * @returns how many files were read.
   */
  async searchFiles(
    paths: readonly string[],
    workdir: string,
    maxFileBytes: number,
    skipped: SkipLedger,
  ): Promise<number> {
    const { cache, collector, compiled, signal } = this;
    if (paths.length === 0) return 0;
    throwIfAborted(signal);
    const ordered = [...paths].sort(byPath);
    const readAt = Date.now();
    const cancellation = new (nativeEngine()!.SearchCancellation)();
    const cancel = (): void => cancellation.cancel();
    signal?.addEventListener("abort", cancel, { once: true });
    let found: PathSearchResult;
    try {
      found = await this.store.searchPaths(
        this.query,
        ordered,
        ordered.map((path) => wantedOf(collector, path)),
        {
          workdir,
          maxBytes: maxFileBytes,
          literals: [...compiled.reading.literals],
          keepBytes: cache?.treeRoom() ?? 0,
          treeCostPerByte: treeBytesPerSourceByte,
          answerMatches: Math.min(collector.keep, allMatches),
          bundleBytes,
        },
        cancellation,
      );
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
    let read = 0;
    const unkept: number[] = [];
    // Ten thousand files' outcomes take longer than a slice of the event loop. An abort, whether it
    // came as the engine answered or while its answers are handed over, lets go of the trees not yet
    // handed to the cache.
    const slicer = new EventLoopSlicer(signal);
    let index = 0;
    try {
      throwIfAborted(signal);
      for (; index < found.outcomes.length; index++) {
        await slicer.pause();
        const outcome = found.outcomes[index]!;
        const path = ordered[index]!;
        if (outcome.skipped !== undefined) {
          skipped.add({
            path,
            reason: outcome.skipped as SkipReason,
            ...(outcome.code === undefined ? {} : { code: outcome.code }),
          });
          continue;
        }
        read += 1;
        if (outcome.result === undefined) continue;
        const matches = fileMatches(outcome.result, path, compiled, outcome.bom);
        collector.parsed += 1;
        collector.addFile(path, matches);
        if (outcome.id === undefined) continue;
        const tree: CachedTree<EngineTree> = {
          path,
          language: compiled.language.id,
          bytes: outcome.bytes!,
          root: { store: this.store, id: outcome.id },
          hasBom: outcome.bom,
        };
        if (cache !== undefined && cache.engineTrees.admit(tree, outcome.identity!, readAt))
          cache.keepResult(tree, this.key, matches);
        else unkept.push(outcome.id);
      }
    } finally {
      for (const outcome of found.outcomes.slice(index)) if (outcome.id !== undefined) unkept.push(outcome.id);
      if (unkept.length > 0) this.store.release(unkept);
    }
    return read;
  }

  /** Match trees already in the cache: a kept result answers when it holds enough matches. */
  async searchCached(trees: readonly CachedTree<EngineTree>[]): Promise<void> {
    const { cache, collector, compiled } = this;
    if (cache === undefined) return;
    const pending: CachedTree<EngineTree>[] = [];
    for (const tree of trees) {
      const kept = cache.result(tree, this.key, collector.wanted(tree.path));
      if (kept !== undefined) {
        collector.addFile(tree.path, kept);
        continue;
      }
      pending.push(tree);
    }
    for (let from = 0; from < pending.length; from += treesPerCall) {
      throwIfAborted(this.signal);
      const chunk = pending.slice(from, from + treesPerCall);
      const results = await this.store.searchTrees(
        this.query,
        chunk.map((tree) => tree.root.id),
        chunk.map((tree) => wantedOf(collector, tree.path)),
      );
      results.forEach((result, index) => {
        const tree = chunk[index]!;
        const found = fileMatches(result, tree.path, compiled, tree.hasBom);
        collector.addFile(tree.path, found);
        cache.keepResult(tree, this.key, found);
      });
    }
    collector.parsed += trees.length;
    throwIfAborted(this.signal);
  }
}
