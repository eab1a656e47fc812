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

// Asked once per interpreter in this process: every sandboxed kernel start would otherwise run it.
const hostExecutables = new Map<string, Promise<string | undefined>>();

function hostExecutable(path: string): Promise<string | undefined> {
  let answer = hostExecutables.get(path);
  if (answer === undefined) hostExecutables.set(path, (answer = askHostExecutable(path)));
  return answer;
}

async function askHostExecutable(path: string): Promise<string | undefined> {
  const probe = await runToCompletion({
    command: path,
    args: ["-c", "import sys; print(sys.executable)"],
    timeoutMs: probeTimeoutMs,
  }).catch(() => undefined);
  return probe?.ending === "exited" && probe.exit.code === 0 ? probe.stdout.trim() || undefined : undefined;
}

/**
 * The interpreter binary a sandboxed program runs and the host folders it needs to read. A project's
 * virtual environment (`fromProject`) is only read (its `pyvenv.cfg`, its links), never run on the
 * host: the project may not be trusted. An interpreter of the host's own (PATH, a configured one) is
 * asked where it really is once, because a version manager's shim is a script that needs the whole
 * manager.
 */
export async function sandboxedPython(
  path: string,
  { fromProject }: { fromProject: boolean },
): Promise<SandboxedPython> {
  const command = fromProject ? path : ((await hostExecutable(path)) ?? path);
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
  return { command, readOnlyPaths: [...paths] };
}
