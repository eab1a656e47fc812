import { statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { isInside } from "./confine-path.js";

/** A project marker found: its name and the directory holding it (the project root). */
export interface FoundMarker {
  /** The marker's name, e.g. `pyproject.toml`. */
  name: string;
  /** The directory it is in (absolute). */
  directory: string;
}

/** Options of {@link findNearestMarker}. */
export interface FindMarkerOptions {
  /** Count only regular files as markers (a directory named `Cargo.toml` is not one); default any entry. */
  filesOnly?: boolean;
}

/**
 * The directories from `start` up to `workdir`, nearest first. Never above the workdir: a project
 * root outside it is not this run's project.
 */
export function directoriesUpTo(start: string, workdir: string): string[] {
  const directories: string[] = [];
  let current = start;
  while (isInside(workdir, current)) {
    directories.push(current);
    if (relative(workdir, current) === "") break;
    current = dirname(current);
  }
  return directories;
}

// A synchronous stat: the walk runs on every routed call, and a handful of local stats take
// microseconds each where their asynchronous round trips through the thread pool take tens.
function isMarker(path: string, filesOnly: boolean): boolean {
  try {
    const entry = statSync(path, { throwIfNoEntry: false });
    return entry !== undefined && (!filesOnly || entry.isFile());
  } catch {
    // Not reachable as an entry (a parent that is a file, no permission): not a marker.
    return false;
  }
}

/**
 * The nearest directory at or above `fromDirectory` (up to the workdir) holding one of the markers.
 * Groups are tried in order and the first group found anywhere wins, so `go.work` beats a nearer
 * `go.mod`; within a group, markers are tried in order in each directory. There is deliberately no
 * fallback to the workdir: no marker, no server or adapter (DESIGN §4).
 */
export async function findNearestMarker(
  fromDirectory: string,
  workdir: string,
  markerGroups: readonly (readonly string[])[],
  options: FindMarkerOptions = {},
): Promise<FoundMarker | undefined> {
  const directories = directoriesUpTo(fromDirectory, workdir);
  for (const group of markerGroups) {
    for (const directory of directories) {
      for (const name of group) {
        if (isMarker(join(directory, name), options.filesOnly ?? false)) return { name, directory };
      }
    }
  }
  return undefined;
}
