import { stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { isInside } from "@runbound/tool-kit";

/** Where a project root was found: the directory and the marker file that made it one. */
export interface FoundRoot {
  /** The project root (absolute). */
  root: string;
  /** The marker's name, e.g. `tsconfig.json`. */
  marker: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
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

/**
 * The nearest directory at or above `fromDirectory` (up to the workdir) holding one of the markers.
 * Groups are tried in order and the first group found anywhere wins, so `go.work` beats a nearer
 * `go.mod`. There is deliberately no fallback to the workdir: no marker, no server (DESIGN §4 lsp).
 */
export async function findNearestMarker(fromDirectory: string, workdir: string, markerGroups: readonly (readonly string[])[]): Promise<FoundRoot | undefined> {
  const directories = directoriesUpTo(fromDirectory, workdir);
  for (const group of markerGroups) {
    for (const directory of directories) {
      for (const marker of group) {
        if (await exists(join(directory, marker))) return { root: directory, marker };
      }
    }
  }
  return undefined;
}
