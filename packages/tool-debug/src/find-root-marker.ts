import { stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { isInside } from "@runbound/tool-kit";

/** A project marker found: the file's name and the directory holding it. */
export interface FoundMarker {
  /** The marker's file name, e.g. `pyproject.toml`. */
  name: string;
  /** The directory it is in (absolute). */
  directory: string;
}

/**
 * The nearest of `markers` in `start` or a directory above it, never above the workdir (a project
 * outside it is not this run's). No fallback: no marker, no adapter (DESIGN §4 debug).
 */
export async function findRootMarker(markers: readonly string[], start: string, workdir: string): Promise<FoundMarker | undefined> {
  for (let directory = start; isInside(workdir, directory); directory = dirname(directory)) {
    for (const name of markers) {
      const found = await stat(join(directory, name)).then(
        (entry) => entry.isFile(),
        () => false,
      );
      if (found) return { name, directory };
    }
    if (relative(workdir, directory) === "") break;
  }
  return undefined;
}
