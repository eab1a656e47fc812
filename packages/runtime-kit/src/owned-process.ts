import { spawn, type ChildProcess } from "node:child_process";
import type { Duplex, Readable, Writable } from "node:stream";
import { LineTail } from "./line-tail.js";
import { listProcesses } from "./list-processes.js";
import { hostPlacement, type Placement } from "./placement.js";

/** Settings of {@link spawnOwnedProcess}. */
export interface OwnedProcessSettings {
  /** The program: an absolute path, or a name looked up on `env.PATH`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /** The working directory. */
  cwd: string;
  /** The environment; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** How many of the last stderr lines to keep for crash reports; default 50. */
  stderrLines?: number;
  /** Where it runs; default {@link hostPlacement}. A sandbox needs `command` to be an absolute path. */
  placement?: Placement;
  /** With a sandbox placement: the variables of `env` this resource set itself, always passed. */
  ownEnv?: readonly string[];
  /** With a sandbox placement: host paths the program reads (its interpreter, its scripts), bound read-only. */
  readOnlyPaths?: readonly string[];
  /** With a sandbox placement: host directories the program writes besides the workdir, bound read-write. */
  writablePaths?: readonly string[];
  /**
   * How many two-way channels to open besides stdin/stdout/stderr, as file descriptors 3, 4, …;
   * default none. A private channel a child's own output cannot be mistaken for (its approvals, say).
   */
  extraChannels?: number;
}

/** How a process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it, or null when it exited by itself. */
  signal: NodeJS.Signals | null;
}

/** Settings of {@link OwnedProcess.stop}. */
export interface StopSettings {
  /** Milliseconds between SIGTERM and SIGKILL; default 2 000. */
  graceMs?: number;
}

/** A child process this program owns: it runs in its own process group and dies with its owner. */
export interface OwnedProcess {
  /** The process id, which is also its process-group id. */
  readonly pid: number;
  /** The child's standard input. */
  readonly stdin: Writable;
  /** The child's standard output. */
  readonly stdout: Readable;
  /** The {@link OwnedProcessSettings.extraChannels}: index 0 is the child's file descriptor 3. */
  readonly channels: readonly Duplex[];
  /**
   * The program's own process id: `pid` on the host; in a sandbox, the program inside the wrapper
   * (for a signal meant for it alone, such as SIGINT). Undefined when it is not running (yet).
   */
  programPid(): Promise<number | undefined>;
  /** Settles (never rejects) when the process has exited and the rest of its group is gone (or 1 s after it was killed). */
  readonly exit: Promise<ProcessExit>;
  /** How it ended, once it has; `undefined` while it runs. */
  exited(): ProcessExit | undefined;
  /** The last lines it wrote to stderr, oldest first. */
  stderrTail(): string[];
  /** Wait at most `timeoutMs` for the exit. @returns the exit, or `undefined` when it is still running. */
  waitForExit(timeoutMs: number): Promise<ProcessExit | undefined>;
  /**
   * End the whole process group: SIGTERM, then SIGKILL to every member still there after the grace.
   * Safe to call more than once and after the process exited by itself.
   */
  stop(settings?: StopSettings): Promise<ProcessExit>;
}

// Groups still alive when this program exits are killed then, so an owner that never called stop()
// (a crash, process.exit) leaves nothing behind. The hook is installed on first spawn, not at import.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the group is already gone; EPERM cannot happen for our own children.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

// SIGKILL is delivered asynchronously: wait (at most `budgetMs`) until the group's members are gone,
// so "exited" means nothing of the tree still runs. Zombies still count as members until reaped, so
// the wait is bounded rather than exact.
async function groupGone(pid: number, budgetMs: number): Promise<void> {
  const deadline = Date.now() + budgetMs;
  while (groupExists(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
  });
}

function waitAtMost(exit: Promise<ProcessExit>, timeoutMs: number): Promise<ProcessExit | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, undefined);
  });
  return Promise.race([exit, timeout]).finally(() => clearTimeout(timer));
}

function started(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once("spawn", () => resolve(child.pid!));
    child.once("error", reject);
  });
}

/**
 * Start a program in a new process group (a session of its own), with piped stdin/stdout/stderr.
 * Whatever it starts in turn stays in that group, so {@link OwnedProcess.stop} ends the whole tree,
 * and when the program exits by itself the rest of its group is killed too (a language server's
 * helper processes, for instance).
 *
 * @throws the spawn error (e.g. `ENOENT` for a missing program), after nothing was left running.
 */
export async function spawnOwnedProcess(settings: OwnedProcessSettings): Promise<OwnedProcess> {
  installExitHook();
  const placed = (settings.placement ?? hostPlacement).place({
    command: settings.command,
    args: settings.args ?? [],
    cwd: settings.cwd,
    env: settings.env ?? process.env,
    ...(settings.ownEnv === undefined ? {} : { ownEnv: settings.ownEnv }),
    ...(settings.readOnlyPaths === undefined ? {} : { readOnlyPaths: settings.readOnlyPaths }),
    ...(settings.writablePaths === undefined ? {} : { writablePaths: settings.writablePaths }),
  });
  const child = spawn(placed.command, placed.args, {
    cwd: settings.cwd,
    env: placed.env,
    stdio: ["pipe", "pipe", "pipe", ...Array.from({ length: settings.extraChannels ?? 0 }, () => "pipe" as const)],
    detached: true,
  });
  const tail = new LineTail(settings.stderrLines ?? 50);
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => tail.push(chunk));
  // A child that dies while we write to it must not crash this program with EPIPE.
  child.stdin!.on("error", () => undefined);
  const channels = child.stdio.slice(3) as Duplex[];
  for (const channel of channels) channel.on("error", () => undefined);
  const pid = await started(child);
  liveGroups.add(pid);
  let exitInfo: ProcessExit | undefined;
  const exit = new Promise<ProcessExit>((resolve) => {
    child.once("exit", (code, signal) => {
      // The leader is gone; anything it left in its group goes too.
      signalGroup(pid, "SIGKILL");
      void groupGone(pid, 1_000).then(() => {
        liveGroups.delete(pid);
        exitInfo = { code, signal };
        resolve(exitInfo);
      });
    });
  });
  let stopping: Promise<ProcessExit> | undefined;
  const wrapperDepth = (settings.placement ?? hostPlacement).wrapperDepth;
  let programPid: number | undefined;
  return {
    pid,
    async programPid() {
      // Found once: the program under a sandbox's wrappers keeps its pid for its life, and an
      // interrupt asks for it every 100 ms (each walk reads the whole process table).
      if (programPid === undefined && wrapperDepth > 0) {
        const rows = await listProcesses();
        let current: number | undefined = pid;
        for (let level = 0; level < wrapperDepth && current !== undefined; level += 1) {
          const parent: number = current;
          current = rows.find((row) => row.ppid === parent && row.state !== "Z")?.pid;
        }
        programPid = current;
      }
      return exitInfo === undefined ? (wrapperDepth === 0 ? pid : programPid) : undefined;
    },
    stdin: child.stdin!,
    stdout: child.stdout!,
    channels,
    exit,
    exited: () => exitInfo,
    stderrTail: () => tail.snapshot(),
    waitForExit: (timeoutMs) => waitAtMost(exit, timeoutMs),
    stop(stopSettings = {}) {
      stopping ??= (async () => {
        if (exitInfo !== undefined) return exitInfo;
        signalGroup(pid, "SIGTERM");
        const ended = await waitAtMost(exit, stopSettings.graceMs ?? 2_000);
        if (ended !== undefined) return ended;
        signalGroup(pid, "SIGKILL");
        return exit;
      })();
      return stopping;
    },
  };
}
