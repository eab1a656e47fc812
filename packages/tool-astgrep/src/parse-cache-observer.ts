import { defineWriteObserver } from "@runbound/tool-kit";
import { AstGrepParser, type AstGrepParserInstance } from "./astgrep-parser.js";

/**
 * Drops the cached trees of files any tool of the run reports writing (`ctx.wrote`): a write may keep
 * a file's size and land within its mtime tick, which the cache's own check cannot tell apart.
 */
export const parseCacheInvalidator = defineWriteObserver({
  name: "astgrep.parse-cache",
  requires: [AstGrepParser],
  observe: (paths, context) => {
    context.resource(AstGrepParser).parseCache?.forget(paths);
    return Promise.resolve(undefined);
  },
});

function mebibytes(bytes: number): string {
  const mebibyte = 1024 * 1024;
  return `${(bytes / mebibyte).toFixed(bytes < 10 * mebibyte ? 1 : 0)} MiB`;
}

/** For status views: `parse cache: 610 files, 181 of 256 MiB; 1,220 hits, 610 misses, 0 evicted, 2 dropped after writes`. */
export function describeParseCache(parser: AstGrepParserInstance): string {
  const cache = parser.parseCache;
  if (cache === undefined) return "parse cache: off";
  const stats = cache.stats();
  return `parse cache: ${stats.files} ${stats.files === 1 ? "file" : "files"}, ${mebibytes(stats.usedBytes)} of ${mebibytes(stats.budgetBytes)}; ${stats.hits} hits, ${stats.misses} misses, ${stats.evicted} evicted, ${stats.invalidated} dropped after writes`;
}
