import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { access, open, realpath, rename, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import {
  describeFileType,
  notRegular,
  openConfinedDirectory,
  readRegularEntry,
  type ConfinedDirectory,
} from "./confined-directory.js";
import { fileSystemToolError } from "./file-system-error.js";
import { ToolError } from "@runbound/tool-kit";
import { withPathLocks } from "./with-path-locks.js";

/** One file of a multi-file change. */
export interface FileChange {
  /** Absolute path inside the workdir, as {@link resolveInWorkdir} returned it. */
  path: string;
  /** The new content, or `null` to delete the file. */
  content: string | null;
  /**
   * The content the change was computed from (`null`: the file must not exist). When given, the file
   * is compared with it before anything is written; any difference rejects the whole change.
   */
  expected?: string | null;
  /** How messages name the file, e.g. relative to the workdir; default `path`. */
  label?: string;
}

/**
 * The file-system calls the writer makes, on paths that name entries through held directory handles;
 * tests replace one to inject a failure.
 */
export interface AtomicWriteFileSystem {
  /**
   * Create `path` (it must not exist; a symlink there is not followed) holding `data`, with exactly the
   * permission bits `mode` when given (a replaced file keeps its own), else the default less the umask.
   */
  writeFile: (path: string, data: string, mode?: number) => Promise<void>;
  rename: (from: string, to: string) => Promise<void>;
  unlink: (path: string) => Promise<void>;
}

/** Settings of {@link writeFilesAtomically}. */
export interface WriteFilesSettings {
  /** The run's working directory: each file is confined to it at the moment it is written, not only when the change was planned. */
  workdir: string;
  /** Replace a file-system call, only to inject failures in tests. */
  fileSystem?: Partial<AtomicWriteFileSystem>;
}

const exclusiveCreate = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const defaultFileSystem: AtomicWriteFileSystem = {
  async writeFile(path, data, mode) {
    const handle = await open(path, exclusiveCreate, 0o666);
    try {
      await handle.writeFile(data);
      // Through the handle: the name could be swapped for a link before a chmod by path ran.
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
  },
  rename,
  unlink,
};

interface Step {
  change: FileChange;
  shown: string;
  directory: ConfinedDirectory | null;
  name: string;
  /** Permission bits of the file being replaced (an executable script stays executable). */
  mode?: number;
  temporary?: string;
  backup?: string;
  committed: boolean;
}

/**
 * Write several files as one change: all of them or none. Every file is confined to the workdir
 * when it is written: its directory is opened component by component without following symlinks
 * and every entry is named through that handle, so a directory swapped for a symlink after the
 * change was planned (or during the write) cannot send it outside. Each new content goes to a
 * temporary file beside its target; originals are moved aside, temporaries renamed into place, and if
 * any step fails every file already replaced is restored before the error is thrown. Renames are
 * atomic per file, so a reader never sees a half-written file. Only regular files that may be
 * written are changed: pipes, sockets, devices, directories and read-only files are refused first.
 *
 * @throws ToolError `conflict` naming every file whose content differs from `expected` (or that was
 * replaced by a directory or a symlink); `invalid_input` for a non-regular file; `io_error` for a
 * read-only file, or (with the file-system error as its cause) when writing fails, after rolling back;
 * `outside_workdir` when a directory of a path leads outside the workdir by the time it is written.
 */
export async function writeFilesAtomically(
  changes: readonly FileChange[],
  settings: WriteFilesSettings,
): Promise<void> {
  if (typeof settings?.workdir !== "string") {
    throw new ToolError({
      code: "internal",
      message: "writeFilesAtomically needs `settings.workdir`, the directory every file is confined to.",
    });
  }
  const fs = { ...defaultFileSystem, ...settings.fileSystem };
  const repeated = changes.find((change, index) => changes.findIndex((other) => other.path === change.path) !== index);
  if (repeated !== undefined) {
    const first = changes.find((change) => change.path === repeated.path)!;
    throw new ToolError({
      code: "invalid_input",
      message: `\`${first.label ?? first.path}\` appears twice in one change. Merge its changes into one.`,
    });
  }
  const root = await realpath(settings.workdir);
  // The check against `expected` and the renames must not interleave with another writer of the same
  // file, or both pass the check and the second silently drops the first one's change.
  await withPathLocks(
    changes.map((change) => change.path),
    () => checkAndWrite(root, fs, changes),
  );
}

/** One handle per directory, shared by the files of the change that live in it. */
class DirectoryHandles {
  private readonly open = new Map<string, Promise<ConfinedDirectory | null>>();
  constructor(private readonly root: string) {}

  get(directory: string, create: boolean, shown: string): Promise<ConfinedDirectory | null> {
    const key = `${create ? "+" : "-"}${directory}`;
    let handle = this.open.get(key);
    if (handle === undefined)
      this.open.set(key, (handle = openConfinedDirectory(this.root, directory, { create, shown })));
    return handle;
  }

  async closeAll(): Promise<void> {
    const handles = await Promise.all([...this.open.values()].map((handle) => handle.catch(() => null)));
    await Promise.all(handles.flatMap((handle) => (handle === null ? [] : [handle.close().catch(() => undefined)])));
  }
}

async function isWritable(directory: ConfinedDirectory, name: string, stats: Stats): Promise<boolean> {
  // Root may write anything; a file nobody may write is still one its owner marked as not to change.
  if ((stats.mode & 0o222) === 0) return false;
  return access(directory.entry(name), constants.W_OK).then(
    () => true,
    () => false,
  );
}

/** Refuse what must not be replaced, before anything is written. */
async function assertReplaceable(step: Step, stats: Stats): Promise<void> {
  const { shown, change } = step;
  if (stats.isDirectory()) {
    if (typeof change.expected === "string") {
      throw new ToolError({
        code: "conflict",
        message: `Nothing was written: \`${shown}\` became a directory since the edit was prepared. Prepare the edit again from the current files.`,
      });
    }
    throw fileSystemToolError(Object.assign(new Error("EISDIR"), { code: "EISDIR" }), shown);
  }
  if (stats.isSymbolicLink()) {
    throw new ToolError({
      code: "conflict",
      message: `Nothing was written: \`${shown}\` was replaced by a symbolic link after its path was checked. Check what changed it, then try again.`,
    });
  }
  if (!stats.isFile()) throw notRegular(shown, describeFileType(stats));
  if (!(await isWritable(step.directory!, step.name, stats))) {
    throw new ToolError({
      code: "io_error",
      message: `Nothing was written: \`${shown}\` is read-only (mode ${(stats.mode & 0o7777).toString(8).padStart(4, "0")}). Leave it as it is, or make it writable (\`chmod u+w\`) first if it is meant to change.`,
    });
  }
}

async function currentContent(step: Step): Promise<string | null> {
  if (step.directory === null) return null;
  const bytes = await readRegularEntry(step.directory, step.name, step.shown);
  return bytes === null ? null : bytes.toString("utf8");
}

async function checkAndWrite(root: string, fs: AtomicWriteFileSystem, changes: readonly FileChange[]): Promise<void> {
  const handles = new DirectoryHandles(root);
  try {
    const steps: Step[] = [];
    const stale: string[] = [];
    for (const change of changes) {
      const shown = change.label ?? change.path;
      const directory = await handles.get(dirname(change.path), false, shown);
      const step: Step = { change, shown, directory, name: basename(change.path), committed: false };
      steps.push(step);
      const stats = directory === null ? null : await directory.inspect(step.name);
      if (stats !== null) {
        await assertReplaceable(step, stats);
        step.mode = stats.mode & 0o7777;
      }
      if (change.expected === undefined) continue;
      const current = await currentContent(step);
      if (current === change.expected) continue;
      const name = `\`${shown}\``;
      stale.push(current === null ? `${name} (deleted)` : change.expected === null ? `${name} (created)` : name);
    }
    if (stale.length > 0) {
      throw new ToolError({
        code: "conflict",
        message: `Nothing was written: ${stale.join(", ")} changed since the edit was prepared. Prepare the edit again from the current content.`,
      });
    }
    await commit(fs, handles, steps);
  } finally {
    await handles.closeAll();
  }
}

async function commit(fs: AtomicWriteFileSystem, handles: DirectoryHandles, steps: readonly Step[]): Promise<void> {
  // Hidden, unique names beside each target: same directory (so rename is atomic), unlikely to be watched.
  const unique = `${process.pid}-${randomBytes(4).toString("hex")}`;
  // A name has at most 255 bytes; the target's own name may already be close to that.
  const beside = (name: string, kind: "tmp" | "bak") => `.${name.slice(0, 100)}.runbound-${unique}.${kind}`;
  try {
    for (const step of steps) {
      if (step.change.content === null) continue;
      step.directory ??= await handles.get(dirname(step.change.path), true, step.shown);
      const temporary = beside(step.name, "tmp");
      await fs.writeFile(step.directory!.entry(temporary), step.change.content, step.mode);
      step.temporary = temporary;
    }
    for (const step of steps) {
      if (step.directory === null) continue;
      const backup = beside(step.name, "bak");
      try {
        await fs.rename(step.directory.entry(step.name), step.directory.entry(backup));
        step.backup = backup;
      } catch (error) {
        if ((error as { code?: unknown }).code !== "ENOENT") throw error;
      }
      step.committed = true;
      if (step.temporary !== undefined) {
        await fs.rename(step.directory.entry(step.temporary), step.directory.entry(step.name));
        step.temporary = undefined;
      }
    }
  } catch (error) {
    await rollBack(fs, steps);
    throw new ToolError({
      code: "io_error",
      message: `Nothing was written: writing the change failed (${error instanceof Error ? error.message : String(error)}) and every file was restored. Check permissions and disk space, then try again.`,
      cause: error,
    });
  }
  // A directory moved out of the workdir while it was open took the new files with it: undo them there.
  for (const step of steps) {
    try {
      await step.directory?.assertStillInside();
    } catch (error) {
      await rollBack(fs, steps);
      throw error;
    }
  }
  await Promise.all(
    steps.flatMap((step) =>
      step.backup === undefined ? [] : [fs.unlink(step.directory!.entry(step.backup)).catch(() => undefined)],
    ),
  );
}

async function rollBack(fs: AtomicWriteFileSystem, steps: readonly Step[]): Promise<void> {
  for (const step of [...steps].reverse()) {
    const directory = step.directory;
    if (directory === null) continue;
    if (step.temporary !== undefined) await fs.unlink(directory.entry(step.temporary)).catch(() => undefined);
    if (!step.committed) continue;
    if (step.backup !== undefined)
      await fs.rename(directory.entry(step.backup), directory.entry(step.name)).catch(() => undefined);
    else await fs.unlink(directory.entry(step.name)).catch(() => undefined);
  }
}
