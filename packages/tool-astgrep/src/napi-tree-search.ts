import type { SgNode, SgRoot } from "@ast-grep/napi";
import type { Stats } from "node:fs";
import { availableParallelism } from "node:os";
import { throwIfAborted } from "./abort-error.js";
import type { CachedTree } from "./cached-tree.js";
import { EventLoopSlicer } from "./event-loop-slice.js";
import type { FileMatches } from "./file-matches.js";
import { materialize, sortFound, withSyntaxErrors } from "./found-nodes.js";
import type { MatchCollector } from "./match-collector.js";
import { napi } from "./napi-binding.js";
import type { ParseCache } from "./parse-cache.js";
import { patternKey } from "./pattern-key.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import type { SearchMatch } from "./search-match.js";
import { hasBom } from "./searchable-file.js";
import { summarizeSyntaxErrors, type FileSyntaxErrors } from "./syntax-error-ledger.js";

/** A file read for this search and not in the cache. */
export interface FreshFile {
  path: string;
  bytes: Buffer;
  stats: Stats;
  /** Wall-clock time (ms) taken before the file was read. */
  readAt: number;
}

/**
 * Parses in flight at once. Each tree is matched on the main thread once parsed, and with one parse
 * per core the pool idled while the main thread matched; two per core keep the cores busy (the first
 * call on 610 TypeScript files: 2.24 s with two in flight, 1.68 s with four, medians of 4 runs on 2
 * cores). libuv's pool (`UV_THREADPOOL_SIZE`, 4 threads unless the host sets it) caps how many run.
 */
const parsesInFlight = 2 * Math.max(1, availableParallelism());

/**
 * Match one parsed tree on the main thread; the first `wanted` matches are materialized. Looking for
 * ERROR nodes in the same pass costs about 40 % more than matching the pattern alone (napi visits
 * every node for them), so it is done once per tree: a plain search of a tree whose ERROR nodes are
 * known matches the pattern alone. A rewrite also looks for MISSING nodes, and a reading of any kind
 * (`reading.anyKind`) needs the ERROR nodes to tell its matches apart, so both look again.
 */
function matchTree(
  tree: CachedTree<SgRoot>,
  compiled: CompiledPattern,
  rewriting: boolean,
  wanted: number,
): FileMatches {
  const { root } = tree;
  const plain = !rewriting && compiled.reading.anyKind !== true;
  const known = plain ? tree.syntaxErrors : undefined;
  let matches: readonly SgNode[];
  let summary: FileSyntaxErrors | undefined;
  if (known !== undefined) {
    matches = root.root().findAll(compiled.matcher);
    summary = known.summary;
  } else {
    const sorted = sortFound(root.root().findAll(withSyntaxErrors(compiled, rewriting)), compiled);
    matches = sorted.matches;
    summary = summarizeSyntaxErrors(sorted.errors, sorted.missing);
    if (plain) tree.syntaxErrors = { summary };
  }
  const materialized: SearchMatch[] = [];
  for (let index = 0; index < Math.min(matches.length, wanted); index++)
    materialized.push(materialize(matches[index]!, tree.path, compiled, tree.hasBom));
  return { count: matches.length, matches: materialized, errors: summary };
}

/** What the pattern finds in a cached tree: the kept result when it holds enough materialized matches, else a fresh match. */
function cachedResult(
  cache: ParseCache,
  tree: CachedTree<SgRoot>,
  key: string,
  compiled: CompiledPattern,
  collector: MatchCollector,
): FileMatches {
  const wanted = collector.wanted(tree.path);
  const kept = cache.result(tree, key, wanted);
  if (kept !== undefined) return kept;
  const found = matchTree(tree, compiled, collector.rewriting, wanted);
  cache.keepResult(tree, key, found);
  return found;
}

/** Search trees already in the cache, on the main thread, yielding every few milliseconds. */
export async function searchCachedTrees(
  cache: ParseCache,
  trees: readonly CachedTree<SgRoot>[],
  compiled: CompiledPattern,
  collector: MatchCollector,
  signal: AbortSignal | undefined,
): Promise<void> {
  const key = patternKey(compiled, collector.rewriting);
  const slicer = new EventLoopSlicer(signal);
  for (const tree of trees) {
    collector.addFile(tree.path, cachedResult(cache, tree, key, compiled, collector));
    await slicer.pause();
  }
  collector.parsed += trees.length;
}

/**
 * Parse fresh files on libuv's pool, match each tree on the main thread and keep it in the cache,
 * until the cache is full of this search's trees.
 * @returns the files left unparsed once the cache was full, in their order, for napi's parallel `findInFiles`.
 */
export async function parseIntoCache(
  cache: ParseCache,
  files: readonly FreshFile[],
  compiled: CompiledPattern,
  collector: MatchCollector,
  signal: AbortSignal | undefined,
): Promise<FreshFile[]> {
  const key = patternKey(compiled, collector.rewriting);
  const napiLang = compiled.language.napiLang;
  let next = 0;
  let full = false;
  const worker = async (): Promise<void> => {
    while (!full && next < files.length) {
      throwIfAborted(signal);
      const file = files[next++]!;
      const root = await napi().parseAsync(napiLang, file.bytes.toString("utf8"));
      const tree: CachedTree<SgRoot> = {
        path: file.path,
        language: compiled.language.id,
        bytes: file.bytes,
        root,
        hasBom: hasBom(file.bytes),
      };
      const found = matchTree(tree, compiled, collector.rewriting, collector.wanted(file.path));
      collector.parsed += 1;
      collector.addFile(file.path, found);
      if (cache.napiTrees.admit(tree, file.stats, file.readAt)) cache.keepResult(tree, key, found);
      // A tree too big for the room left is matched and let go; the next, smaller ones may still fit.
      else full = cache.isFull();
    }
  };
  await Promise.all(Array.from({ length: parsesInFlight }, worker));
  throwIfAborted(signal);
  return files.slice(next);
}
