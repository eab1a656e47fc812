import type { SgRoot } from "@ast-grep/napi";
import type { TreeStore } from "@runbound/astgrep-engine";
import { ToolError } from "@runbound/tool-kit";
import type { Stats } from "node:fs";
import { sep } from "node:path";
import type { CachedTree, FileIdentity } from "./cached-tree.js";
import { createTreeStore } from "./engine-binding.js";
import type { EngineTree } from "./engine-tree.js";
import type { FileMatches } from "./file-matches.js";
import { releaseEvictedTrees } from "./native-memory-pacer.js";

/**
 * One backend's trees in the cache. A backend looks up and admits trees of its own kind only, so no
 * tree reaches a backend that did not parse it: a path whose tree another backend keeps is a miss
 * here, and admitting it here replaces that tree.
 */
export interface TreeShelf<Root> {
  /**
   * The cached tree of `path` for `language`, if the file has not changed since. `statOf` gives the
   * path's current status (without following a symlink; `undefined` when it is gone) and is called only
   * when an entry exists, so a cold search costs no extra stat per file; `read` is called only when the
   * mtime is too recent to trust and must return the file's current bytes (or `undefined` when it
   * cannot be read). A changed file's entry is dropped.
   */
  lookup(
    path: string,
    language: string,
    statOf: () => Stats | undefined,
    read: () => Buffer | undefined,
    now?: number,
  ): CachedTree<Root> | undefined;
  /**
   * Keep a freshly parsed tree if its cost fits the budget (evicting older entries as needed).
   * `verifiedAt` is the wall-clock time taken before the bytes were read.
   * @returns whether it was kept.
   */
  admit(tree: CachedTree<Root>, stats: FileIdentity, verifiedAt: number): boolean;
}

interface Entry<Root> extends CachedTree<Root> {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Wall-clock time (ms) before the bytes were read or last compared with the file. */
  verifiedAt: number;
  treeCost: number;
  /** Results per pattern key, oldest first. */
  results: Map<string, { found: FileMatches; cost: number }>;
  /** The search that last used the entry. */
  generation: number;
  /** Take the entry off its backend's shelf. */
  unshelve(): void;
  /** Let the tree's native memory go (an engine tree at once, a napi tree once V8 collects its handle). */
  release(): void;
}

/**
 * Native memory of a napi tree per byte of source. Measured: 610 TypeScript files (7.4 MB) parsed and
 * kept took 200 MB of resident memory (27×); 1,256 files (17 MB) took 552 MB (32×, research astgrep.md §1.6).
 */
export const treeBytesPerSourceByte = 30;
/** Results of this many patterns are kept per file; an older one is dropped for a new one. */
const resultsPerFile = 4;
/**
 * A file modified less than this long before it was read may change again within the same mtime tick
 * on a file system with coarse timestamps (2 s on FAT, 1 s on HFS+ and some network shares); until
 * its mtime is older than that, the cached copy is compared byte for byte with the file.
 */
export const coarseMtimeMs = 2000;

function resultCost(found: FileMatches): number {
  let cost = 128 + (found.errors?.regions.length ?? 0) * 48;
  for (const match of found.matches) {
    cost += 256 + match.text.length * 2;
    for (const capture of Object.values(match.captures)) cost += 96 + capture.text.length * 2;
  }
  return cost;
}

/** Counters for the status line. */
export interface ParseCacheStats {
  files: number;
  usedBytes: number;
  budgetBytes: number;
  hits: number;
  misses: number;
  evicted: number;
  invalidated: number;
}

/**
 * Parsed trees of one run, kept between searches so a repeated search reads and parses nothing that
 * did not change. Each backend keeps its own kind of tree on its own shelf (napi's `SgRoot`s, the
 * native engine's trees); the budget, the eviction order and the counters are shared. An entry is
 * keyed by path and checked against the file's size, mtime and inode
 * at every lookup (a file changed behind the run's back is parsed again), compared byte for byte
 * while its mtime is too recent to trust (see {@link coarseMtimeMs}), and dropped when a tool of
 * the run reports writing it (`forget`). Entries cost their tree's estimated native size plus the
 * results kept with them; the least recently used go first when the budget is reached, but never one
 * the current search already used (a search larger than the budget keeps what fits instead of
 * evicting its own files in a loop).
 */
export class ParseCache {
  /** Every shelf's entries by path (a path is on one shelf at most), least recently used first. */
  private readonly entries = new Map<string, Entry<unknown>>();
  private usedBytes = 0;
  private generation = 0;
  private evictedSinceRelease = 0;
  private hits = 0;
  private misses = 0;
  private evicted = 0;
  private invalidated = 0;
  private store: TreeStore | undefined;

  /** Trees napi parsed; their native memory goes once V8 collects their handles (see releaseIfMuchEvicted). */
  readonly napiTrees: TreeShelf<SgRoot> = this.shelf(() => undefined);
  /** Trees the native engine keeps, in {@link engineStore}; freed the moment they are dropped. */
  readonly engineTrees: TreeShelf<EngineTree> = this.shelf((root) => root.store.release([root.id]));

  constructor(readonly budgetBytes: number) {}

  /** The native engine's store for this cache's trees (the engine must be loaded). */
  engineStore(): TreeStore {
    this.store ??= createTreeStore();
    return this.store;
  }

  /** Start a search: entries it touches from now on are not evicted by its own admissions. */
  beginSearch(): void {
    this.generation += 1;
  }

  private shelf<Root>(release: (root: Root) => void): TreeShelf<Root> {
    const trees = new Map<string, Entry<Root>>();
    return {
      lookup: (path, language, statOf, read, now = Date.now()) =>
        this.lookupOn(trees, path, language, statOf, read, now),
      admit: (tree, stats, verifiedAt) => this.admitTo(trees, release, tree, stats, verifiedAt),
    };
  }

  private lookupOn<Root>(
    trees: ReadonlyMap<string, Entry<Root>>,
    path: string,
    language: string,
    statOf: () => Stats | undefined,
    read: () => Buffer | undefined,
    now: number,
  ): CachedTree<Root> | undefined {
    const entry = trees.get(path);
    if (entry === undefined || entry.language !== language) {
      this.misses += 1;
      return undefined;
    }
    const stats = statOf();
    const same =
      stats !== undefined &&
      stats.isFile() &&
      stats.size === entry.size &&
      stats.mtimeMs === entry.mtimeMs &&
      stats.ino === entry.ino;
    if (same && entry.mtimeMs > entry.verifiedAt - coarseMtimeMs) {
      const current = read();
      if (current !== undefined && current.equals(entry.bytes)) entry.verifiedAt = now;
      else return this.drop(entry, "changed");
    } else if (!same) {
      return this.drop(entry, "changed");
    }
    this.hits += 1;
    this.touch(entry);
    return entry;
  }

  private admitTo<Root>(
    trees: Map<string, Entry<Root>>,
    release: (root: Root) => void,
    tree: CachedTree<Root>,
    stats: FileIdentity,
    verifiedAt: number,
  ): boolean {
    const treeCost = tree.bytes.length * treeBytesPerSourceByte;
    const previous = this.entries.get(tree.path);
    if (previous !== undefined) this.remove(previous);
    if (!this.makeRoom(treeCost)) return false;
    const entry: Entry<Root> = {
      ...tree,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      ino: stats.ino,
      verifiedAt,
      treeCost,
      results: new Map(),
      generation: this.generation,
      unshelve: () => trees.delete(tree.path),
      release: () => release(tree.root),
    };
    this.entries.set(tree.path, entry);
    trees.set(tree.path, entry);
    this.usedBytes += treeCost;
    return true;
  }

  /** Whether this search has left less than a sixteenth of the budget for trees it could still keep. */
  isFull(): boolean {
    return this.roomLeft() < this.budgetBytes / 16;
  }

  /** What this search may still spend on trees (free room, and entries no search of this generation used); 0 once full. */
  treeRoom(): number {
    const room = this.roomLeft();
    return room < this.budgetBytes / 16 ? 0 : room;
  }

  private roomLeft(): number {
    let reclaimable = 0;
    for (const entry of this.entries.values()) {
      // Touched entries sit after every older one (see touch).
      if (entry.generation === this.generation) break;
      reclaimable += entry.treeCost;
    }
    return this.budgetBytes - this.usedBytes + reclaimable;
  }

  /**
   * What `key` (a pattern in one language) found in the cached `tree`, if it was kept with at least
   * its first `wanted` matches materialized (a later search may need more of them than an earlier one).
   */
  result(tree: CachedTree<unknown>, key: string, wanted = 0): FileMatches | undefined {
    const kept = this.entries.get(tree.path)?.results.get(key)?.found;
    return kept !== undefined && kept.matches.length >= Math.min(kept.count, wanted) ? kept : undefined;
  }

  /** Keep what `key` found in the cached `tree` (dropping the file's oldest result beyond the few kept), if it fits. */
  keepResult(tree: CachedTree<unknown>, key: string, found: FileMatches): void {
    const entry = this.entries.get(tree.path);
    if (entry === undefined || entry.root !== tree.root) return;
    const previous = entry.results.get(key);
    if (previous !== undefined) {
      entry.results.delete(key);
      this.usedBytes -= previous.cost;
    }
    const cost = resultCost(found);
    if (!this.makeRoom(cost, entry)) return;
    if (entry.results.size >= resultsPerFile) {
      const [oldestKey, oldest] = entry.results.entries().next().value!;
      entry.results.delete(oldestKey);
      this.usedBytes -= oldest.cost;
    }
    entry.results.set(key, { found, cost });
    this.usedBytes += cost;
  }

  /**
   * Drop the entries of written paths (a written directory drops everything under it).
   * @returns how many entries were dropped.
   */
  forget(paths: readonly string[]): number {
    let dropped = 0;
    for (const path of paths) {
      const exact = this.entries.get(path);
      if (exact !== undefined) {
        this.drop(exact, "written");
        dropped += 1;
        continue;
      }
      const prefix = path.endsWith(sep) ? path : `${path}${sep}`;
      for (const entry of [...this.entries.values()]) {
        if (!entry.path.startsWith(prefix)) continue;
        this.drop(entry, "written");
        dropped += 1;
      }
    }
    return dropped;
  }

  /** Drop every entry and let their native memory go. */
  clear(): void {
    const had = this.entries.size > 0;
    for (const entry of this.entries.values()) entry.unshelve();
    this.entries.clear();
    this.store?.clear();
    this.usedBytes = 0;
    if (had) releaseEvictedTrees();
  }

  stats(): ParseCacheStats {
    return {
      files: this.entries.size,
      usedBytes: this.usedBytes,
      budgetBytes: this.budgetBytes,
      hits: this.hits,
      misses: this.misses,
      evicted: this.evicted,
      invalidated: this.invalidated,
    };
  }

  private touch(entry: Entry<unknown>): void {
    entry.generation = this.generation;
    // A Map iterates in insertion order: re-inserting moves the entry to the most recently used end.
    this.entries.delete(entry.path);
    this.entries.set(entry.path, entry);
  }

  private makeRoom(cost: number, keep?: Entry<unknown>): boolean {
    if (cost > this.budgetBytes) return false;
    while (this.usedBytes + cost > this.budgetBytes) {
      const oldest = this.entries.values().next().value;
      // Everything left was used by this search (it was touched, so it sits after every older entry).
      if (oldest === undefined || oldest.generation === this.generation || oldest === keep) return false;
      this.remove(oldest);
      this.evicted += 1;
    }
    this.releaseIfMuchEvicted();
    return true;
  }

  private drop(entry: Entry<unknown>, why: "changed" | "written"): undefined {
    this.remove(entry);
    if (why === "written") this.invalidated += 1;
    else this.misses += 1;
    return undefined;
  }

  private remove(entry: Entry<unknown>): void {
    this.entries.delete(entry.path);
    entry.unshelve();
    // An engine tree is freed at once; a napi tree only once V8 collects its handle (see releaseIfMuchEvicted).
    entry.release();
    let cost = entry.treeCost;
    for (const kept of entry.results.values()) cost += kept.cost;
    this.usedBytes -= cost;
    this.evictedSinceRelease += cost;
  }

  /**
   * A dropped tree's native memory is freed only when V8 collects its small JS handle, which has
   * long been promoted to the old generation and which V8 does not know to be large: once an eighth
   * of the budget was dropped, a full collection lets it go.
   */
  private releaseIfMuchEvicted(): void {
    if (this.evictedSinceRelease < this.budgetBytes / 8) return;
    this.evictedSinceRelease = 0;
    releaseEvictedTrees();
  }
}

/** The parse cache's budget when `createAstGrepParser` is given none. */
export const defaultParseCacheBytes = 256 * 1024 * 1024;

/**
 * The cache for a `parseCacheBytes` setting: `undefined` (off) for 0.
 * @throws ToolError `invalid_input` for a negative or non-finite budget.
 */
export function createParseCache(budgetBytes = defaultParseCacheBytes): ParseCache | undefined {
  if (!Number.isFinite(budgetBytes) || budgetBytes < 0) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`parseCacheBytes\` is \`${budgetBytes}\`; give a number of bytes, 0 or more (0 turns the parse cache off).`,
    });
  }
  return budgetBytes === 0 ? undefined : new ParseCache(budgetBytes);
}
