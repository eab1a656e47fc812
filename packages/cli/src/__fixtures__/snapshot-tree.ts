import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join, relative } from "node:path";

/**
 * Every entry below `root` (except the subtrees in `except`) as `path type mode size digest`, sorted,
 * so two snapshots differ exactly when something was created, removed or changed there.
 */
export async function snapshotTree(root: string, except: readonly string[] = []): Promise<string[]> {
  const lines: string[] = [];
  const pending = [root];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    for (const name of await readdir(directory)) {
      const path = join(directory, name);
      if (except.includes(path)) continue;
      const stats = await lstat(path);
      const kind = stats.isSymbolicLink() ? `link ${await readlink(path)}` : stats.isDirectory() ? "dir" : stats.isFile() ? "file" : "special";
      const digest = stats.isFile() ? createHash("sha256").update(await readFile(path)).digest("hex") : "";
      lines.push(`${relative(root, path)} ${kind} ${(stats.mode & 0o7777).toString(8)} ${stats.isDirectory() ? "" : stats.size} ${digest}`);
      if (stats.isDirectory()) pending.push(path);
    }
  }
  return lines.sort();
}
