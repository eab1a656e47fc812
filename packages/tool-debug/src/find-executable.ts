import { readdir } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { isExecutableFile } from "@runbound/process-kit";

/** The absolute entries of a PATH value, each once, in order (a relative entry would depend on the cwd). */
export function pathDirectories(pathVariable: string | undefined): string[] {
  return [...new Set((pathVariable ?? "").split(delimiter).filter((entry) => isAbsolute(entry)))];
}

/** The first `directory/name` that is executable, trying names in order within each directory in order. */
export async function findExecutable(names: readonly string[], directories: readonly string[]): Promise<string | undefined> {
  for (const directory of directories) {
    for (const name of names) {
      const candidate = join(directory, name);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The names in `directories` of the form `<base>-<number>` (Debian's `lldb-vscode-16`,
 * `lldb-dap-19`), highest version first, so the newest installed adapter wins.
 */
export async function versionedNames(base: string, directories: readonly string[]): Promise<string[]> {
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-(\\d+)$`);
  const found = new Map<string, number>();
  for (const directory of directories) {
    const entries = await readdir(directory).catch(() => [] as string[]);
    for (const entry of entries) {
      const match = pattern.exec(entry);
      if (match !== null) found.set(entry, Number(match[1]));
    }
  }
  return [...found].sort((left, right) => right[1] - left[1]).map(([name]) => name);
}
