import { readdir } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { isExecutableFile } from "@runbound/runtime-kit";

/** The absolute entries of a PATH value, each once, in order (a relative entry would depend on the cwd). */
export function pathDirectories(pathVariable: string | undefined): string[] {
  return [...new Set((pathVariable ?? "").split(delimiter).filter((entry) => isAbsolute(entry)))];
}

/**
 * The first `directory/name` that is executable, trying names in order within each directory in order.
 * Every candidate is checked at once and the first in that order wins: one after the other, the
 * checks cost a thread-pool round trip each, tens of ms on a busy machine for a long PATH.
 */
export async function findExecutable(names: readonly string[], directories: readonly string[]): Promise<string | undefined> {
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
