import type { FileResult, QueryInput, TreeStore } from "@runbound/astgrep-engine";
import { throwIfAborted } from "./abort-error.js";
import { sharedTreeStore } from "./engine-binding.js";
import type { MatchCollector } from "./match-collector.js";
import { isEngineTree, type CachedTree, type FileMatches, type ParseCache } from "./parse-cache.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import type { SearchMatch } from "./structural-search.js";
import { hasBom, patternKey, type FreshFile } from "./tree-search.js";

/** A tree the native engine keeps: its store and id there. */
export interface EngineTree {
  readonly store: TreeStore;
  readonly id: number;
}

/**
 * Files per engine call, and bytes. The engine parses a call's files on every core and cannot be
 * stopped midway, so the signal is checked between calls; two calls are in flight so that one's
 * slowest file does not leave the other cores idle, while the main thread reads the next files.
 * A tree takes about 30 times its file's size while it is matched, so only one batch bigger than
 * that (a bundle, sent alone) is in flight at a time: two bundles side by side doubled the peak of a
 * search of 4,500 JavaScript files, while parsing one alone left a core idle for seconds.
 */
const batchFiles = 32;
const batchBytes = 512 * 1024;
const batchesInFlight = 2;
/** Kept trees matched per engine call: matching alone is fast, so more per call. */
const treesPerCall = 256;

/** How many of a file's first matches to materialize; the engine takes a 32-bit count (a rewrite wants them all). */
function wantedOf(collector: MatchCollector, path: string): number {
  return Math.min(collector.wanted(path), 0xffff_ffff);
}

function queryOf(compiled: CompiledPattern, rewriting: boolean): QueryInput {
  const { reading, matcher, captures, language } = compiled;
  return {
    language: language.napiLang,
    config: matcher,
    single: [...captures.single],
    multi: [...captures.multi],
    ...(reading.anyKind === true ? {} : { readingKind: reading.kind }),
    rewriting,
  };
}

/** The engine's answer for one file, in the shape the napi path gives. */
function fileMatches(result: FileResult, path: string, compiled: CompiledPattern, bom: boolean): FileMatches {
  const terminator = compiled.reading.spannedTerminator;
  const matches = result.matches.map(
    (match): SearchMatch => ({
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
    }),
  );
  return { count: result.count, matches, errors: result.errors ?? undefined };
}

/**
 * One language's search on the native engine: files are sent to it in batches while the main thread
 * reads the next ones; with a parse cache their trees stay in the engine until the cache is full.
 */
export class NativeSearch {
  private readonly query: QueryInput;
  private readonly key: string;
  private readonly store: TreeStore;
  private batch: FreshFile[] = [];
  private batchSize = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private bundleInFlight = false;
  private failure: unknown;
  private full = false;

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

  /** A file read for this search and not in the cache. */
  async add(file: FreshFile): Promise<void> {
    if (this.batch.length > 0 && (this.batch.length >= batchFiles || this.batchSize + file.bytes.length > batchBytes)) await this.dispatch();
    this.batch.push(file);
    this.batchSize += file.bytes.length;
  }

  /** Send the last batch, wait for every batch, then match the cached trees. */
  async finish(cached: readonly CachedTree[]): Promise<void> {
    if (this.batch.length > 0) await this.dispatch();
    await Promise.all(this.inFlight);
    this.rethrow();
    await this.searchCached(cached);
  }

  private rethrow(): void {
    if (this.failure !== undefined) throw this.failure;
    throwIfAborted(this.signal);
  }

  private async dispatch(): Promise<void> {
    const files = this.batch;
    const bundle = this.batchSize > batchBytes;
    this.batch = [];
    this.batchSize = 0;
    while (this.inFlight.size >= batchesInFlight || (bundle && this.bundleInFlight)) await Promise.race(this.inFlight);
    this.rethrow();
    if (bundle) this.bundleInFlight = true;
    const running: Promise<void> = this.searchFresh(files)
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.inFlight.delete(running);
        if (bundle) this.bundleInFlight = false;
      });
    this.inFlight.add(running);
  }

  private async searchFresh(files: readonly FreshFile[]): Promise<void> {
    const { cache, collector, compiled } = this;
    const keep = cache !== undefined && !this.full;
    const wanted = files.map((file) => wantedOf(collector, file.path));
    const { results, ids } = await this.store.searchSources(this.query, files.map((file) => file.bytes), wanted, keep);
    const unkept: number[] = [];
    results.forEach((result, index) => {
      const file = files[index]!;
      const bom = hasBom(file.bytes);
      const found = fileMatches(result, file.path, compiled, bom);
      collector.parsed += 1;
      collector.addFile(file.path, found);
      if (!keep) return;
      const id = ids[index]!;
      const tree: CachedTree = { path: file.path, language: compiled.language.id, bytes: file.bytes, root: { store: this.store, id }, hasBom: bom };
      if (cache.admit(tree, file.stats, file.readAt)) {
        cache.keepResult(tree, this.key, found);
        return;
      }
      // A tree too big for the room left is let go; the next, smaller ones may still fit.
      unkept.push(id);
      this.full = cache.isFull();
    });
    if (unkept.length > 0) this.store.release(unkept);
  }

  /** Match trees already in the cache: a kept result answers when it holds enough matches. */
  private async searchCached(trees: readonly CachedTree[]): Promise<void> {
    const { cache, collector, compiled } = this;
    if (cache === undefined) return;
    const pending: Array<{ tree: CachedTree; root: EngineTree }> = [];
    for (const tree of trees) {
      const kept = cache.result(tree, this.key, collector.wanted(tree.path));
      if (kept !== undefined) {
        collector.addFile(tree.path, kept);
        continue;
      }
      const { root } = tree;
      // A bug, not an input: each language's trees come from one engine (see engineReads).
      if (!isEngineTree(root)) throw new Error(`\`${tree.path}\` is kept by napi and cannot be matched with the native engine.`);
      pending.push({ tree, root });
    }
    for (let from = 0; from < pending.length; from += treesPerCall) {
      throwIfAborted(this.signal);
      const chunk = pending.slice(from, from + treesPerCall);
      const results = await this.store.searchTrees(
        this.query,
        chunk.map(({ root }) => root.id),
        chunk.map(({ tree }) => wantedOf(collector, tree.path)),
      );
      results.forEach((result, index) => {
        const { tree } = chunk[index]!;
        const found = fileMatches(result, tree.path, compiled, tree.hasBom);
        collector.addFile(tree.path, found);
        cache.keepResult(tree, this.key, found);
      });
    }
    collector.parsed += trees.length;
    throwIfAborted(this.signal);
  }
}
