import { lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The name every image directory of `runbound call` starts with, inside the system's temporary directory. */
export const IMAGE_DIRECTORY_PREFIX = "runbound-images-";

/** How long a call's images are kept: a later call that saves images removes older directories. */
export const IMAGE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Where `runbound call` saves images, as `--help` tells it. */
export function imageDirectoryPattern(): string {
  return join(tmpdir(), `${IMAGE_DIRECTORY_PREFIX}XXXXXX`);
}

async function removeIfStale(path: string, now: number): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  // Only real directories of this user: never follow a symlink, never touch another user's images.
  if (stats === undefined || !stats.isDirectory()) return;
  if (process.getuid !== undefined && stats.uid !== process.getuid()) return;
  if (now - stats.mtimeMs < IMAGE_RETENTION_MS) return;
  await rm(path, { recursive: true, force: true }).catch(() => undefined);
}

/**
 * A new directory for one call's images. Directories earlier calls left that are older than
 * {@link IMAGE_RETENTION_MS} are removed first, so the temporary directory does not fill up over time
 * while the images a user just got stay where the output said.
 */
export async function createImageDirectory(): Promise<string> {
  const parent = tmpdir();
  const now = Date.now();
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(IMAGE_DIRECTORY_PREFIX))
      .map((name) => removeIfStale(join(parent, name), now)),
  );
  return mkdtemp(join(parent, IMAGE_DIRECTORY_PREFIX));
}
