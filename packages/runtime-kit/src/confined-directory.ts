import { constants, existsSync, type Stats } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { isInside } from "./confine-path.js";
import { errnoCode, fileSystemToolError } from "./file-system-error.js";
import { ToolError } from "@runbound/tool-kit";

/**
 * A directory inside the workdir, opened component by component from the workdir without following
 * symbolic links, and held open. Entries are named through the held handle, so replacing a directory
 * of the path by a symlink after it was opened (a `git checkout`, or an attacker racing the write)
 * cannot redirect a write or a read to somewhere else (DESIGN §5: confinement at the moment of writing).
 */
export interface ConfinedDirectory {
  /** The directory's real path when it was opened. */
  readonly path: string;
  /** A path naming `name` inside this very directory, whatever has happened to its path since. */
  entry(name: string): string;
  /** The entry's own status (a symlink is not followed), or `null` when there is no such entry; other failures are mapped ToolErrors. */
  inspect(name: string): Promise<Stats | null>;
  /**
   * @throws ToolError `outside_workdir` when the directory has been moved out of the workdir since it
   * was opened, `conflict` when it was deleted.
   */
  assertStillInside(): Promise<void>;
  close(): Promise<void>;
}

// Linux shows each open descriptor as /proc/self/fd/N; a path through it resolves from the open
// directory itself, the way openat(2) does, which Node does not expose. Elsewhere the directory's
// path is used and re-checked after writing (a narrow window remains; see the tool-kit README).
const descriptorPathsAvailable = process.platform === "linux" && existsSync("/proc/self/fd");

/** Options of {@link openConfinedDirectory}. */
export interface ConfinedDirectoryOptions {
  /** Make missing directories (each one inside the already opened parent). */
  create: boolean;
  /** The path of the file being worked on, for messages. */
  shown: string;
  /** Name entries through the handle (`descriptor`, where available) or by path (`path`, elsewhere; tests use it). */
  addressing?: "descriptor" | "path";
}
const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Why a component that should be a directory is not one: swapped for a symlink, or a file. */
async function notADirectory(root: string, lexical: string, shown: string, cause: unknown): Promise<ToolError> {
  const stats = await lstat(lexical).catch(() => undefined);
  const component = `\`${relative(root, lexical).split(sep).join("/")}\``;
  if (stats?.isSymbolicLink() === true) {
    const target = await realpath(lexical).catch(() => undefined);
    const leaves = target === undefined || !isInside(root, target);
    return new ToolError({
      code: leaves ? "outside_workdir" : "conflict",
      message: `Nothing was written to \`${shown}\`: ${component} was replaced by a symbolic link${leaves ? " leading outside the working directory" : ""} after the path was checked. Check what changed the directory, then try again.`,
      cause,
    });
  }
  return new ToolError({
    code: "invalid_input",
    message: `${component} in \`${shown}\` is not a directory, so \`${shown}\` cannot be used. Check the path.`,
    cause,
  });
}

/** Open one component below an open parent, making it first when asked; `null` when it is missing. */
async function openChild(
  root: string,
  parent: string,
  childLexical: string,
  name: string,
  options: ConfinedDirectoryOptions,
): Promise<FileHandle | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(join(parent, name), directoryFlags);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" && !options.create) return null;
      if (code === "ENOENT" && attempt === 0) {
        // mkdir never follows a symlink in its last component: a racing link makes it fail (EEXIST),
        // and the second open then meets the link.
        await mkdir(join(parent, name)).catch((mkdirError: unknown) => {
          if (errnoCode(mkdirError) !== "EEXIST") throw mkdirError;
        });
        continue;
      }
      // O_DIRECTORY | O_NOFOLLOW on a symlink fails with ENOTDIR on Linux, ELOOP elsewhere.
      if (code === "ELOOP" || code === "ENOTDIR") throw await notADirectory(root, childLexical, options.shown, error);
      throw error;
    }
  }
}

/**
 * Open `directory` (absolute, symlink-free, inside `root`) through handles, one component at a time.
 *
 * @param root the workdir's real path.
 * @returns the directory, or `null` when it does not exist and `create` is false.
 * @throws ToolError `outside_workdir`/`conflict` when a component is now a symlink, `invalid_input`
 * when it is a file, or the mapped file-system error.
 */
export async function openConfinedDirectory(
  root: string,
  directory: string,
  options: ConfinedDirectoryOptions,
): Promise<ConfinedDirectory | null> {
  const descriptorPaths = (options.addressing ?? (descriptorPathsAvailable ? "descriptor" : "path")) === "descriptor";
  if (!isInside(root, directory)) {
    throw new ToolError({
      code: "outside_workdir",
      message: `Path \`${options.shown}\` resolves outside the working directory \`${root}\`. Use a path inside it.`,
    });
  }
  const components = relative(root, directory)
    .split(sep)
    .filter((part) => part !== "");
  let handle = await open(root, constants.O_RDONLY | constants.O_DIRECTORY).catch((error: unknown) => {
    throw fileSystemToolError(error, ".");
  });
  let lexical = root;
  const through = (current: FileHandle, path: string) => (descriptorPaths ? `/proc/self/fd/${current.fd}` : path);
  try {
    for (const name of components) {
      const parent = through(handle, lexical);
      const childLexical = join(lexical, name);
      const child = await openChild(root, parent, childLexical, name, options);
      if (child === null) {
        await handle.close();
        return null;
      }
      await handle.close();
      handle = child;
      lexical = childLexical;
    }
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw fileSystemToolError(error, options.shown);
  }
  const held = handle;
  const heldPath = through(held, lexical);
  return {
    path: lexical,
    entry: (name) => join(heldPath, name),
    inspect: (name) =>
      lstat(join(heldPath, name)).catch((error: unknown) => {
        if (errnoCode(error) === "ENOENT") return null;
        throw fileSystemToolError(error, options.shown);
      }),
    async assertStillInside() {
      // Through the handle, the directory's current path; outside Linux, the path it was opened at.
      const current = descriptorPaths
        ? await readlink(heldPath).catch((error: unknown) => {
            throw fileSystemToolError(error, options.shown);
          })
        : await realpath(lexical).catch(() => `${lexical} (deleted)`);
      if (current.endsWith(" (deleted)")) {
        throw new ToolError({
          code: "conflict",
          message: `The directory of \`${options.shown}\` was deleted while the change was being written. Nothing was kept; try again.`,
        });
      }
      if (!isInside(root, current)) {
        throw new ToolError({
          code: "outside_workdir",
          message: `The directory of \`${options.shown}\` was moved outside the working directory (to \`${current}\`) while the change was being written. The change was undone there; check what moved it.`,
        });
      }
    },
    close: () => held.close(),
  };
}

/** How messages name a file type that is neither a regular file nor a directory. */
export function describeFileType(stats: Stats): string {
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

// A FIFO opened for reading without O_NONBLOCK waits for a writer; this way it returns at once and
// the descriptor's own status decides, so a file swapped between the check and the open is caught too.
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Read a regular file of `directory` through its handle, never following a symlink and never
 * blocking on a pipe or device: the entry is checked before it is opened, and the opened descriptor
 * is checked again (the entry may have been swapped in between).
 *
 * @returns the bytes, or `null` when there is no such entry.
 * @throws ToolError `invalid_input` when the entry is not a regular file (or is bigger than `maxBytes`).
 */
export async function readRegularEntry(
  directory: ConfinedDirectory,
  name: string,
  shown: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Buffer | null> {
  const entry = await directory.inspect(name);
  if (entry === null) return null;
  assertRegular(entry, shown, maxBytes);
  let handle: FileHandle;
  try {
    handle = await open(directory.entry(name), readFlags);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT") return null;
    // Swapped since the check: a link (ELOOP) or a socket (ENXIO).
    if (code === "ELOOP" || code === "ENXIO")
      throw notRegular(shown, code === "ELOOP" ? "a symbolic link" : "not a regular file");
    throw fileSystemToolError(error, shown);
  }
  try {
    assertRegular(await handle.stat(), shown, maxBytes);
    return await handle.readFile();
  } catch (error) {
    throw fileSystemToolError(error, shown);
  } finally {
    await handle.close();
  }
}

function assertRegular(stats: Stats, shown: string, maxBytes: number): void {
  if (stats.isDirectory()) throw fileSystemToolError(Object.assign(new Error("EISDIR"), { code: "EISDIR" }), shown);
  if (!stats.isFile()) throw notRegular(shown, describeFileType(stats));
  if (stats.size > maxBytes) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`${shown}\` is ${Math.round(stats.size / 1024 / 1024)} MiB; files up to ${Math.round(maxBytes / 1024 / 1024)} MiB can be used here. Use a smaller file.`,
    });
  }
}

/** The refusal of a pipe, socket or device: only regular files are read or written (DESIGN §5). */
export function notRegular(shown: string, kind: string): ToolError {
  return new ToolError({
    code: "invalid_input",
    message: `\`${shown}\` is ${kind}, not a regular file; only regular files can be read or written. Give the path of a regular file.`,
  });
}
