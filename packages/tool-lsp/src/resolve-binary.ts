import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { directoriesUpTo } from "./find-nearest-marker.js";

/** Where project-local programs live, relative to a project directory, searched before PATH. */
export const PROJECT_BIN_DIRECTORIES = ["node_modules/.bin", ".venv/bin", "venv/bin"] as const;

/** The outcome of {@link resolveBinary}: the program found, or every place that was searched. */
export type BinaryResolution = { found: true; path: string } | { found: false; looked: string[] };

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Find a server's program: project-local first (each directory from the project root up to the
 * workdir, in {@link PROJECT_BIN_DIRECTORIES}, so a monorepo's hoisted `node_modules/.bin` counts),
 * then every entry of `pathVariable`. A relative PATH entry is ignored: it would depend on the cwd.
 */
export async function resolveBinary(command: string, root: string, workdir: string, pathVariable: string): Promise<BinaryResolution> {
  if (isAbsolute(command)) return (await isExecutableFile(command)) ? { found: true, path: command } : { found: false, looked: [command] };
  const candidates = [
    ...directoriesUpTo(root, workdir).flatMap((directory) => PROJECT_BIN_DIRECTORIES.map((bin) => join(directory, bin))),
    ...pathVariable.split(delimiter).filter((entry) => isAbsolute(entry)),
  ];
  const looked: string[] = [];
  for (const directory of candidates) {
    const path = join(directory, command);
    if (await isExecutableFile(path)) return { found: true, path };
    looked.push(directory);
  }
  return { found: false, looked };
}
