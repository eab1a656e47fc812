import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";

/**
 * Whether `path` is a regular file this process may execute: what "the program is installed" means
 * when a tool looks for one (a directory or a non-executable file of that name does not count).
 */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
