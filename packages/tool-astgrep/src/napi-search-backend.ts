import type { SgRoot } from "@ast-grep/napi";
import { throwIfAborted } from "./abort-error.js";
import type { CachedTree } from "./cached-tree.js";
import { literalFilter } from "./literal-filter.js";
import { runFindInFiles, type Candidate } from "./napi-batch-search.js";
import { parseIntoCache, searchCachedTrees, type FreshFile } from "./napi-tree-search.js";
import type { LanguageSearch, SearchBackend } from "./search-backend.js";
import { hasBom, isSearchable, lstatOrUndefined, readSearchableFile } from "./searchable-file.js";

/**
 * @ast-grep/napi, which reads every grammar the parser offers: the main thread reads the files; napi
 * parses those the cache will keep, and searches the rest in batches.
 */
export const napiSearchBackend: SearchBackend = {
  reads: () => true,
  search: async ({ compiled, paths, request, collector, skipped, slicer }: LanguageSearch): Promise<number> => {
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
  },
};
