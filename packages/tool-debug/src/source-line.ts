import { readFileSync, statSync } from "node:fs";
import { isInside } from "@runbound/tool-kit";
import { cutText } from "./bounded-text.js";

// Files larger than this are not read for a stop's source line (a generated file of megabytes).
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const CACHED_FILES = 32;
const cache = new Map<string, { mtimeMs: number; size: number; lines: string[] }>();

/**
 * The text of line `line` (1-based) of a file inside the workdir, cut at 200 characters; nothing for
 * files outside it or too large. Read synchronously and kept while the file is unchanged (same
 * modification time and size): every stop answer needs it, and a read through the thread pool waits
 * behind any other file work queued there (tens of ms on a busy machine), more than the step itself.
 */
export function sourceLine(workdir: string, path: string | undefined, line: number | undefined): string | undefined {
  if (path === undefined || line === undefined || !isInside(workdir, path)) return undefined;
  const lines = linesOf(path);
  const found = lines?.[line - 1];
  return found === undefined ? undefined : cutText(found.trimEnd(), 200).text;
}

function linesOf(path: string): string[] | undefined {
  try {
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_SOURCE_BYTES) return undefined;
    const cached = cache.get(path);
    if (cached !== undefined && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.lines;
    const lines = readFileSync(path, "utf8").split(/\r?\n/);
    cache.delete(path);
    cache.set(path, { mtimeMs: info.mtimeMs, size: info.size, lines });
    // The oldest entry goes first (a Map keeps insertion order).
    if (cache.size > CACHED_FILES) cache.delete(cache.keys().next().value!);
    return lines;
  } catch {
    return undefined;
  }
}
