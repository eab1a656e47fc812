import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ToolError } from "./tool-error.js";
import { withPathLocks } from "./with-path-locks.js";

/** One file of a multi-file change. */
export interface FileChange {
  /** Absolute path (already confined to the workdir). */
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

/** The file-system calls the writer uses; tests replace one to inject a failure. */
export interface AtomicWriteFileSystem {
  readFile: (path: string, encoding: "utf8") => Promise<string>;
  writeFile: (path: string, data: string) => Promise<void>;
  chmod: (path: string, mode: number) => Promise<void>;
  rename: (from: string, to: string) => Promise<void>;
  unlink: (path: string) => Promise<void>;
  mkdir: (path: string, options: { recursive: true }) => Promise<unknown>;
  stat: (path: string) => Promise<{ mode: number }>;
}

const defaultFileSystem: AtomicWriteFileSystem = {
  readFile: (path, encoding) => nodeFs.readFile(path, encoding),
  writeFile: (path, data) => nodeFs.writeFile(path, data),
  chmod: nodeFs.chmod,
  rename: nodeFs.rename,
  unlink: nodeFs.unlink,
  mkdir: nodeFs.mkdir,
  stat: nodeFs.stat,
};

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "ENOENT";
}

async function readOrNull(fs: AtomicWriteFileSystem, path: string): Promise<string | null> {
  try {
    return await fs.readFile(path, "utf8");
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

interface Step {
  change: FileChange;
  temporary?: string;
  backup?: string;
  committed: boolean;
}

/**
 * Write several files as one change: all of them or none. Each new content goes to a temporary file
 * beside its target; originals are moved aside, temporaries renamed into place, and if any step fails
 * every file already replaced is restored before the error is thrown. Renames are atomic per file, so
 * a reader never sees a half-written file.
 *
 * @throws ToolError `conflict` naming every file whose content differs from `expected`; `io_error`
 * (with the file-system error as its cause) when writing fails, after rolling back.
 */
export async function writeFilesAtomically(changes: readonly FileChange[], fileSystem: Partial<AtomicWriteFileSystem> = {}): Promise<void> {
  const fs = { ...defaultFileSystem, ...fileSystem };
  // The check against `expected` and the renames must not interleave with another writer of the same
  // file, or both pass the check and the second silently drops the first one's change.
  await withPathLocks(
    changes.map((change) => change.path),
    () => checkAndWrite(fs, changes),
  );
}

async function checkAndWrite(fs: AtomicWriteFileSystem, changes: readonly FileChange[]): Promise<void> {
  const stale: string[] = [];
  for (const change of changes) {
    if (change.expected === undefined) continue;
    const current = await readOrNull(fs, change.path);
    if (current === change.expected) continue;
    const name = `\`${change.label ?? change.path}\``;
    stale.push(current === null ? `${name} (deleted)` : change.expected === null ? `${name} (created)` : name);
  }
  if (stale.length > 0) {
    throw new ToolError({
      code: "conflict",
      message: `Nothing was written: ${stale.join(", ")} changed since the edit was prepared. Prepare the edit again from the current content.`,
    });
  }

  // Hidden, unique names beside each target: same file system (so rename is atomic), unlikely to be watched.
  const unique = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const beside = (path: string, kind: "tmp" | "bak") => join(dirname(path), `.${basename(path)}.runbound-${unique}.${kind}`);
  const steps: Step[] = changes.map((change) => ({ change, committed: false }));
  try {
    for (const step of steps) {
      if (step.change.content === null) continue;
      await fs.mkdir(dirname(step.change.path), { recursive: true });
      const mode = await fs.stat(step.change.path).then((stats) => stats.mode, () => undefined);
      step.temporary = beside(step.change.path, "tmp");
      await fs.writeFile(step.temporary, step.change.content);
      // A replaced file keeps its permissions (an executable script stays executable).
      if (mode !== undefined) await fs.chmod(step.temporary, mode & 0o7777);
    }
    for (const step of steps) {
      const backup = beside(step.change.path, "bak");
      try {
        await fs.rename(step.change.path, backup);
        step.backup = backup;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      step.committed = true;
      if (step.temporary !== undefined) {
        await fs.rename(step.temporary, step.change.path);
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
  const backups = steps.flatMap((step) => (step.backup === undefined ? [] : [step.backup]));
  await Promise.all(backups.map((backup) => fs.unlink(backup).catch(() => undefined)));
}

async function rollBack(fs: AtomicWriteFileSystem, steps: readonly Step[]): Promise<void> {
  for (const step of [...steps].reverse()) {
    if (step.temporary !== undefined) await fs.unlink(step.temporary).catch(() => undefined);
    if (!step.committed) continue;
    if (step.backup !== undefined) await fs.rename(step.backup, step.change.path).catch(() => undefined);
    else await fs.unlink(step.change.path).catch(() => undefined);
  }
}
