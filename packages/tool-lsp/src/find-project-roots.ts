import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { findNearestMarker } from "@runbound/runtime-kit";
import type { LspServerSpec } from "./server-spec.js";

/** Directories never searched for projects: dependencies, build output, environments, VCS data. */
export function skippedDirectories(): readonly string[] {
  // Inside a function rather than a module-level constant, so each test run sees a mutation of it.
  return ["node_modules", ".git", ".venv", "venv", "target", "dist", "build"];
}
/** The most directories one search reads, so a huge tree cannot stall the call. */
export const MAX_SEARCHED_DIRECTORIES = 5_000;

/** A project root with a checker: the server entry whose markers made it one, the directory, the marker. */
export interface ProjectRoot {
  spec: LspServerSpec;
  /** The root (absolute). */
  root: string;
  /** The marker file that made it a root, e.g. `tsconfig.json`. */
  marker: string;
}

/** What {@link findProjectRoots} found, and whether the search stopped at {@link MAX_SEARCHED_DIRECTORIES}. */
export interface FoundProjectRoots {
  roots: ProjectRoot[];
  searchCut: boolean;
}

async function entriesOf(directory: string): Promise<Dirent[]> {
  try {
    return await readdir(directory, { withFileTypes: true });
  } catch {
    // A directory that may not be read holds no project this call can check.
    return [];
  }
}

/**
 * Every project root at or below `scope` for the servers that have a checker, found by the rules
 * the servers use: a directory holding a marker makes a candidate, and the root is the nearest
 * marker from there ({@link findNearestMarker}, so a `go.mod` inside a `go.work` workspace belongs
 * to the workspace). Breadth first, so shallow roots come first; symbolic links are not followed.
 * When nothing below `scope` is a root, the root that contains `scope` is the answer.
 */
export async function findProjectRoots(
  scope: string,
  workdir: string,
  servers: readonly LspServerSpec[],
  signal: AbortSignal,
): Promise<FoundProjectRoots> {
  const checked = servers.filter((spec) => spec.checker !== undefined);
  const skipped = new Set(skippedDirectories());
  // Keyed by server and root: a root reached again from a nested marker keeps its first place.
  const roots = new Map<string, ProjectRoot>();
  const add = (found: ProjectRoot): void => void roots.set(`${found.spec.id}\0${found.root}`, found);
  const queue = [scope];
  let searched = 0;
  while (queue.length > 0 && searched < MAX_SEARCHED_DIRECTORIES) {
    signal.throwIfAborted();
    const directory = queue.shift()!;
    searched++;
    const entries = await entriesOf(directory);
    const files = new Set(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
    for (const spec of checked) {
      if (!spec.rootMarkers.some((group) => group.some((marker) => files.has(marker)))) continue;
      // Never undefined: this directory holds one of the markers.
      const found = (await findNearestMarker(directory, workdir, spec.rootMarkers))!;
      add({ spec, root: found.directory, marker: found.name });
    }
    // Sorted, so which projects make the cut never depends on the listing order (Node documents none;
    // libuv happens to sort on Unix).
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory() && !skipped.has(entry.name)) queue.push(join(directory, entry.name));
    }
  }
  if (roots.size === 0) {
    for (const spec of checked) {
      const found = await findNearestMarker(scope, workdir, spec.rootMarkers);
      if (found !== undefined) add({ spec, root: found.directory, marker: found.name });
    }
  }
  return { roots: [...roots.values()], searchCut: queue.length > 0 };
}
