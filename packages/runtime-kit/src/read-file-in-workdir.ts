import type { Dirent, Stats } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { openConfinedDirectory, readRegularEntry, type ConfinedDirectory } from "./confined-directory.js";
import { displayPath } from "./confine-path.js";
import { fileSystemToolError } from "./file-system-error.js";

/** Settings of {@link readFileInWorkdir}. */
export interface ReadInWorkdirOptions {
  /** Refuse files bigger than this many bytes (`invalid_input`); default no limit. */
  maxBytes?: number;
  /** How messages name the file; default the path relative to the workdir. */
  shown?: string;
}

async function withParent<T>(
  workdir: string,
  path: string,
  shown: string,
  missing: T,
  work: (directory: ConfinedDirectory, name: string) => Promise<T>,
): Promise<T> {
  const root = await realpath(workdir);
  const directory = await openConfinedDirectory(root, dirname(path), { create: false, shown });
  if (directory === null) return missing;
  try {
    return await work(directory, basename(path));
  } finally {
    await directory.close();
  }
}

/**
 * Read a regular file inside the workdir (`path` as {@link resolveInWorkdir} returned it), through
 * directory handles opened without following symlinks, so a directory swapped for a link after the
 * path was resolved cannot make it read a file outside. Pipes, sockets and devices are refused
 * before anything blocks on them.
 *
 * @returns the bytes, or `null` when the file does not exist.
 * @throws ToolError `invalid_input` for a directory, a non-regular file or one over `maxBytes`;
 * `outside_workdir`/`conflict` when a directory of the path became a symlink; the mapped errno otherwise.
 */
export async function readFileInWorkdir(
  workdir: string,
  path: string,
  options: ReadInWorkdirOptions = {},
): Promise<Buffer | null> {
  const shown = options.shown ?? displayPath(workdir, path);
  return withParent(workdir, path, shown, null, (directory, name) =>
    readRegularEntry(directory, name, shown, options.maxBytes),
  );
}

/**
 * The status of a path inside the workdir without following a final symlink, or `null` when it does
 * not exist; the directories above it are walked through handles like {@link readFileInWorkdir}.
 */
export async function inspectInWorkdir(
  workdir: string,
  path: string,
  shown = displayPath(workdir, path),
): Promise<Stats | null> {
  const root = await realpath(workdir);
  if (path === root) return lstat(root);
  return withParent(workdir, path, shown, null, (directory, name) => directory.inspect(name));
}

/** The entries of a directory inside the workdir, read through a handle opened without following symlinks. */
export async function listDirectoryInWorkdir(
  workdir: string,
  path: string,
  shown = displayPath(workdir, path),
): Promise<Dirent[]> {
  const root = await realpath(workdir);
  const directory = await openConfinedDirectory(root, path, { create: false, shown });
  if (directory === null) throw fileSystemToolError(Object.assign(new Error("ENOENT"), { code: "ENOENT" }), shown);
  try {
    return await readdir(directory.entry("."), { withFileTypes: true });
  } catch (error) {
    throw fileSystemToolError(error, shown);
  } finally {
    await directory.close();
  }
}
