import { hostPythonExecutable, isInside } from "@runbound/runtime-kit";

/**
 * debugpy's adapter and debuggee interpreters as the binaries themselves: one found on PATH may be a
 * version manager's shim (pyenv's shell script costs ~100 ms at each of the adapter's, the launcher's
 * and the program's starts, and cannot run in a sandbox). A project's own interpreter (inside `root`)
 * is kept as it is: it is not run on the host to be asked. A path that cannot be asked is kept too.
 */
export async function withRealInterpreters<Located extends { command: string; debuggeePython?: string }>(
  located: Located,
  root: string,
): Promise<Located> {
  const real = async (path: string) =>
    isInside(root, path) ? path : ((await hostPythonExecutable(path, root)) ?? path);
  return {
    ...located,
    command: await real(located.command),
    ...(located.debuggeePython === undefined ? {} : { debuggeePython: await real(located.debuggeePython) }),
  };
}
