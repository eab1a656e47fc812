import { readdir } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { directoriesUpTo } from "./find-nearest-marker.js";
import { isExecutableFile } from "./is-executable-file.js";

/** Where a project's own programs live, relative to a project directory, searched before PATH. */
export const PROJECT_BIN_DIRECTORIES = ["node_modules/.bin", ".venv/bin", "venv/bin"] as const;

/** The absolute entries of a PATH value, each once, in order (a relative entry would depend on the cwd). */
export function pathDirectories(pathVariable: string | undefined): string[] {
  return [...new Set((pathVariable ?? "").split(delimiter).filter((entry) => isAbsolute(entry)))];
}

/** Settings of {@link programDirectories}. */
export interface ProgramDirectoriesSettings {
  /** The project directory the search starts from (absolute). */
  projectRoot: string;
  /** The run's working directory: project directories are searched from `projectRoot` up to it, never above. */
  workdir: string;
  /** The PATH value searched after the project's own directories. */
  pathVariable: string | undefined;
  /** The project-local directories, relative to each project directory; default {@link PROJECT_BIN_DIRECTORIES}. */
  projectBins?: readonly string[];
}

/**
 * Where to look for a program, project-local first: each of `projectBins` in every directory from
 * the project root up to the workdir (so a monorepo's hoisted `node_modules/.bin` counts), then the
 * absolute PATH entries. A directory listed twice (PATH often is) comes once, at its first place.
 */
export function programDirectories(settings: ProgramDirectoriesSettings): string[] {
  const bins = settings.projectBins ?? PROJECT_BIN_DIRECTORIES;
  const project = directoriesUpTo(settings.projectRoot, settings.workdir).flatMap((directory) =>
    bins.map((bin) => join(directory, bin)),
  );
  return [...new Set([...project, ...pathDirectories(settings.pathVariable)])];
}

/**
 * The first `directory/name` that is executable, trying names in order within each directory in order.
 * Every candidate is checked at once and the first in that order wins: one after the other, the
 * checks cost a thread-pool round trip each, tens of ms on a busy machine for a long PATH.
 */
export async function findExecutable(
  names: readonly string[],
  directories: readonly string[],
): Promise<string | undefined> {
  const candidates = directories.flatMap((directory) => names.map((name) => join(directory, name)));
  const executable = await Promise.all(candidates.map((candidate) => isExecutableFile(candidate)));
  return candidates.find((_, index) => executable[index]);
}

/**
 * The names in `directories` of the form `<base>-<number>` (Debian's `lldb-vscode-16`,
 * `lldb-dap-19`), highest version first, so the newest installed adapter wins.
 */
export async function versionedNames(base: string, directories: readonly string[]): Promise<string[]> {
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-(\\d+)$`);
  const found = new Map<string, number>();
  // Read at once, for the same reason as above.
  const listings = await Promise.all(directories.map((directory) => readdir(directory).catch(() => [] as string[])));
  for (const entries of listings) {
    for (const entry of entries) {
      const match = pattern.exec(entry);
      if (match !== null) found.set(entry, Number(match[1]));
    }
  }
  return [...found].sort((left, right) => right[1] - left[1]).map(([name]) => name);
}
