import { readFile, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { runToCompletion } from "./run-to-completion.js";

/** What a sandboxed Python program (a kernel, a debug adapter, a debuggee) runs and reads of the host to run it. */
export interface SandboxedPython {
  /** The interpreter binary itself (a sandbox cannot follow a shim script that looks programs up). */
  command: string;
  /** Its prefix, a virtual environment's folder and the base interpreter it was made from: read-only. */
  readOnlyPaths: string[];
}

const probeTimeoutMs = 10_000;

async function realOrNothing(path: string): Promise<string | undefined> {
  return realpath(path).catch(() => undefined);
}

/** `home = /usr/local/bin` of a virtual environment's pyvenv.cfg: where its base interpreter lives. */
async function virtualenvHome(environment: string): Promise<string | undefined> {
  const config = await readFile(join(environment, "pyvenv.cfg"), "utf8").catch(() => undefined);
  return config === undefined ? undefined : /^\s*home\s*=\s*(.+?)\s*$/m.exec(config)?.[1];
}

// Asked once per interpreter and folder in this process: every start would otherwise run it.
const hostExecutables = new Map<string, Promise<string | undefined>>();

/**
 * The interpreter binary a host interpreter's path stands for (`sys.executable`), asked once per path
 * and folder: a version manager's shim (pyenv's is a shell script, ~100 ms a start) picks the version
 * for the folder it runs in (`.python-version`), so it is asked in `cwd`, in isolated mode (`-I`: no
 * module of that folder, such as a `sitecustomize.py`, runs). Undefined when it cannot be asked.
 */
export function hostPythonExecutable(path: string, cwd?: string): Promise<string | undefined> {
  const key = `${path}\0${cwd ?? ""}`;
  let answer = hostExecutables.get(key);
  if (answer === undefined) hostExecutables.set(key, (answer = askHostExecutable(path, cwd)));
  return answer;
}

async function askHostExecutable(path: string, cwd: string | undefined): Promise<string | undefined> {
  const probe = await runToCompletion({
    command: path,
    args: ["-I", "-c", "import sys; print(sys.executable)"],
    ...(cwd === undefined ? {} : { cwd }),
    timeoutMs: probeTimeoutMs,
  }).catch(() => undefined);
  return probe?.ending === "exited" && probe.exit.code === 0 ? probe.stdout.trim() || undefined : undefined;
}

/**
 * The host folders a sandboxed program needs to read to run the interpreter binary `command`: its
 * prefix and, for a virtual environment, the environment's folder and the base interpreter's.
 */
export async function pythonReadOnlyPaths(command: string): Promise<string[]> {
  const paths = new Set<string>();
  const environment = dirname(dirname(command));
  const real = await realOrNothing(command);
  if (real !== undefined) paths.add(dirname(dirname(real)));
  const home = await virtualenvHome(environment);
  if (home !== undefined) {
    paths.add((await realOrNothing(environment)) ?? environment);
    const base = await realOrNothing(home);
    if (base !== undefined) paths.add(dirname(base));
  }
  return [...paths];
}

/**
 * The interpreter binary a sandboxed program runs and the host folders it needs to read. A project's
 * virtual environment (`fromProject`) is only read (its `pyvenv.cfg`, its links), never run on the
 * host: the project may not be trusted. An interpreter of the host's own (PATH, a configured one) is
 * asked where it really is once (in `cwd`, the folder it will run for: see {@link hostPythonExecutable}),
 * because a version manager's shim is a script that needs the whole manager.
 */
export async function sandboxedPython(
  path: string,
  { fromProject, cwd }: { fromProject: boolean; cwd?: string },
): Promise<SandboxedPython> {
  const command = fromProject ? path : ((await hostPythonExecutable(path, cwd)) ?? path);
  return { command, readOnlyPaths: await pythonReadOnlyPaths(command) };
}
