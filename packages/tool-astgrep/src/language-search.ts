import { lstatSync, type Stats } from "node:fs";
import type { SgRoot } from "@ast-grep/napi";
import { throwIfAborted } from "./abort-error.js";
import type { CachedTree } from "./cached-tree.js";
import { engineReads } from "./engine-binding.js";
import { NativeSearch } from "./engine-search.js";
import type { EngineTree } from "./engine-tree.js";
import type { EventLoopSlicer } from "./event-loop-slice.js";
import type { MatchCollector } from "./match-collector.js";
import { runFindInFiles, type Candidate } from "./napi-batch-search.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import { isSearchable, readSearchableFile } from "./searchable-file.js";
import type { SkipLedger } from "./skip-ledger.js";
import type { SearchRequest } from "./search-request.js";
import { hasBom, parseIntoCache, searchCachedTrees, type FreshFile } from "./tree-search.js";

/** One language's part of a search: its compiled pattern, its files, and what the search collects into. */
export interface LanguageSearch {
  compiled: CompiledPattern;
  paths: readonly string[];
  request: SearchRequest;
  collector: MatchCollector;
  skipped: SkipLedger;
  slicer: EventLoopSlicer;
}

/** Whether a file's bytes hold every literal word of the pattern (a file without one cannot match). */
function literalFilter(compiled: CompiledPattern): (bytes: Buffer) => boolean {
  const literals = compiled.reading.literals.map((literal) => Buffer.from(literal));
  return (bytes) => literals.every((literal) => bytes.includes(literal));
}

/** A file's bytes as a search reads them, or `undefined` when a search would skip it. */
function bytesOrUndefined(path: string, request: SearchRequest): Buffer | undefined {
  const read = readSearchableFile(path, request.workdir, request.maxFileBytes);
  return isSearchable(read) ? read.bytes : undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Search one language's files: those the parse cache holds unchanged are matched from their kept
 * trees, the rest are read, parsed and matched by the native engine or by napi.
 * @returns how many files were read (from the cache or the disk).
 */
export async function searchLanguage(search: LanguageSearch): Promise<number> {
  return engineReads(search.compiled.language) ? searchOnEngine(search) : searchOnNapi(search);
}

/** The engine reads the files the cache does not hold, on its own threads, in one call. */
async function searchOnEngine({ compiled, paths, request, collector, skipped, slicer }: LanguageSearch): Promise<number> {
  const { cache } = request;
  const hasLiterals = literalFilter(compiled);
  const native = new NativeSearch(compiled, collector, cache, request.signal);
  const cachedTrees: CachedTree<EngineTree>[] = [];
  const unread: string[] = [];
  let count = 0;
  for (const path of paths) {
    await slicer.pause();
    const tree = cache?.engineTrees.lookup(path, compiled.language.id, () => lstatOrUndefined(path), () => bytesOrUndefined(path, request), Date.now());
    if (tree === undefined) {
      unread.push(path);
      continue;
    }
    count += 1;
    if (hasLiterals(tree.bytes)) cachedTrees.push(tree);
  }
  count += await native.searchFiles(unread, request.workdir, request.maxFileBytes, skipped);
  await native.searchCached(cachedTrees);
  return count;
}

/** The main thread reads the files; napi parses those the cache will keep, and searches the rest in batches. */
async function searchOnNapi({ compiled, paths, request, collector, skipped, slicer }: LanguageSearch): Promise<number> {
  const { cache } = request;
  const hasLiterals = literalFilter(compiled);
  const cachedTrees: CachedTree<SgRoot>[] = [];
  const fresh: FreshFile[] = [];
  const uncached: Candidate[] = [];
  let count = 0;
  for (const path of paths) {
    await slicer.pause();
    const readAt = Date.now();
    let read: ReturnType<typeof readSearchableFile> | undefined;
    const readBytes = (): Buffer | undefined => {
      read = readSearchableFile(path, request.workdir, request.maxFileBytes);
      return isSearchable(read) ? read.bytes : undefined;
    };
    const tree = cache?.napiTrees.lookup(path, compiled.language.id, () => lstatOrUndefined(path), readBytes, readAt);
    if (tree !== undefined) {
      count += 1;
      if (hasLiterals(tree.bytes)) cachedTrees.push(tree);
      continue;
    }
    read ??= readSearchableFile(path, request.workdir, request.maxFileBytes);
    if (!isSearchable(read)) {
      skipped.add({ path, ...read });
      continue;
    }
    const { bytes } = read;
    count += 1;
    if (!hasLiterals(bytes)) continue;
    if (hasBom(bytes)) collector.withBom.add(path);
    // The status of the descriptor the bytes came through is the one the cache checks later.
    if (cache === undefined) uncached.push({ path, bytes: bytes.length });
    else fresh.push({ path, bytes, stats: read.stats, readAt });
  }
  throwIfAborted(request.signal);
  if (cache !== undefined) await searchCachedTrees(cache, cachedTrees, compiled, collector, request.signal);
  // Once the cache is full of this search's trees, the rest go to napi's parallel search and are not kept.
  const unparsed = cache === undefined ? [] : await parseIntoCache(cache, fresh, compiled, collector, request.signal);
  for (const file of unparsed) uncached.push({ path: file.path, bytes: file.bytes.length });
  await runFindInFiles(compiled, uncached, request.workdir, collector, skipped, request.signal);
  return count;
}
