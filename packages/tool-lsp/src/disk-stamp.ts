import { statSync } from "node:fs";

/**
 * What a file looked like on disk when its text was read (stat taken before the read): while its
 * size, modification time and inode stay the same, the server's text is the file's and need not be
 * read again. The inode catches a file replaced by another (an atomic rename, `git checkout`);
 * nanoseconds, because two writes within one millisecond are common in a script.
 */
export interface DiskStamp {
  size: bigint;
  mtimeNs: bigint;
  ino: bigint;
}

/** Whether two stamps describe the same file content, as far as stat can tell. */
export function sameStamp(a: DiskStamp | undefined, b: DiskStamp): boolean {
  return a !== undefined && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ino === b.ino;
}

/** The stamp of the regular file at `path` now, or `null` when there is none (missing, a directory, a broken link). */
export async function readDiskStamp(path: string): Promise<DiskStamp | null> {
  // Synchronous: every query stats each open document, and a local stat takes microseconds where
  // its round trip through the thread pool takes tens (issue 25's warm overhead).
  try {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stats?.isFile() === true ? { size: stats.size, mtimeNs: stats.mtimeNs, ino: stats.ino } : null;
  } catch {
    return null;
  }
}
