import { readFileInWorkdir } from "@runbound/runtime-kit";

/**
 * A file's text, or `null` when it does not exist, read through the workdir's directory handles so a
 * path swapped for a symlink since it was resolved cannot be read outside. A directory, pipe or
 * device is the caller's mistake, answered `invalid_input` naming the path (`shown`).
 */
export async function readTextOrNull(workdir: string, path: string, shown: string): Promise<string | null> {
  const bytes = await readFileInWorkdir(workdir, path, { shown });
  return bytes === null ? null : bytes.toString("utf8");
}
