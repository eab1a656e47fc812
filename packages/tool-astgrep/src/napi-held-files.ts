import { closeSync } from "node:fs";
import { join } from "node:path";
import { descriptorDirectory, openRegularFile } from "./searchable-file.js";
import type { SkippedEntry } from "./skip-ledger.js";

/** Files opened for one napi call, and the paths napi is given for them. */
export interface HeldFiles {
  /** The paths to hand napi, in the order of the files that could be opened. */
  readonly napiPaths: readonly string[];
  /** The file a napi path stands for. */
  pathOf(napiPath: string): string;
  /** Close the descriptors, once napi has read every file. */
  close(): void;
}

/**
 * Open a batch's files for napi's `findInFiles`, which opens each path itself and follows a symlink:
 * a file swapped for a link to something outside the workdir after the search read it would be
 * searched there. Each file is opened here as it was read (no symlink, no FIFO, a regular file) and
 * napi is given its descriptor's path, so it reads the file opened here. A file that can no longer be
 * opened so is skipped and reported. Where the platform names no descriptors, the paths themselves
 * are handed over (a narrow window remains there).
 */
export function holdFiles(paths: readonly string[], workdir: string, skip: (entry: SkippedEntry) => void): HeldFiles {
  if (descriptorDirectory === undefined)
    return { napiPaths: paths, pathOf: (napiPath) => napiPath, close: () => undefined };
  const descriptors: number[] = [];
  const byNapiPath = new Map<string, string>();
  for (const path of paths) {
    const opened = openRegularFile(path, workdir);
    if (!("descriptor" in opened)) {
      skip({ path, ...opened });
      continue;
    }
    descriptors.push(opened.descriptor);
    byNapiPath.set(join(descriptorDirectory, String(opened.descriptor)), path);
  }
  return {
    napiPaths: [...byNapiPath.keys()],
    pathOf: (napiPath) => byNapiPath.get(napiPath) ?? napiPath,
    close: () => {
      for (const descriptor of descriptors.splice(0)) closeSync(descriptor);
    },
  };
}
