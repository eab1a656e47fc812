import type { CachedTree } from "./cached-tree.js";
import { engineReads } from "./engine-binding.js";
import { NativeSearch } from "./engine-search.js";
import type { EngineTree } from "./engine-tree.js";
import { literalFilter } from "./literal-filter.js";
import type { LanguageSearch, SearchBackend } from "./search-backend.js";
import { lstatOrUndefined, searchableBytes } from "./searchable-file.js";

/**
 * The native engine (@runbound/astgrep-engine): it reads the files the cache does not hold, on its
 * own threads, in one call; the main thread only looks the cache up.
 */
export const engineSearchBackend: SearchBackend = {
  reads: engineReads,
  search: async ({ compiled, paths, request, collector, skipped, slicer }: LanguageSearch): Promise<number> => {
    const { cache } = request;
    const hasLiterals = literalFilter(compiled);
    const native = new NativeSearch(compiled, collector, cache, request.signal);
    const cachedTrees: CachedTree<EngineTree>[] = [];
    const unread: string[] = [];
    let count = 0;
    for (const path of paths) {
      await slicer.pause();
      const tree = cache?.engineTrees.lookup(
        path,
        compiled.language.id,
        () => lstatOrUndefined(path),
        () => searchableBytes(path, request.workdir, request.maxFileBytes),
        Date.now(),
      );
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
  },
};
