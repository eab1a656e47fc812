import { lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import type { Placement, PlacedCommand, PlacementRequest } from "./placement.js";
import { sharedEtcView } from "./etc-view.js";
import { SANDBOX_HOME, sandboxEnvironment } from "./sandbox-environment.js";

/** Settings of {@link createBubblewrapPlacement}. */
export interface BubblewrapPlacementSettings {
  /** The `bwrap` program (absolute), as {@link detectBubblewrap} found it. */
  bwrap: string;
  /** Its version, for `describe()`. */
  version: string;
  /** The workdir: the one host directory a program may write, bound at its own path. */
  workdir: string;
  /** Whether programs may use the network; default false (a network namespace of their own, with no interface but loopback). */
  network?: boolean;
  /** Host variables passed besides the allowlist (the CLI's `--pass-env NAME`). */
  passEnv?: readonly string[];
  /** Host paths every program of this placement reads, bound read-only at the same path. */
  readOnlyPaths?: readonly string[];
}

// The top-level directories a merged-/usr system makes symlinks into /usr; on others they are bound read-only.
const usrLinks = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

// What of /etc programs need: the dynamic linker's cache, certificates, name resolution, users and
// groups (for `getpwuid`), the time zone, fonts, and Debian's per-Python configuration. Not /etc as a
// whole: it holds the host's secrets (shadow, ssh host keys, credentials some services drop there).
// Bound as one copy made once per process (see etc-view.ts), else entry by entry.
const etcEntries = [
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "alternatives",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "pki",
  "resolv.conf",
  "hosts",
  "nsswitch.conf",
  "gai.conf",
  "host.conf",
  "passwd",
  "group",
  "localtime",
  "timezone",
  "mime.types",
  "os-release",
  "fonts",
  "matplotlibrc",
];

function etcPythonEntries(): string[] {
  try {
    return readdirSync("/etc").filter((name) => /^python3(\.\d+)?$/.test(name));
  } catch {
    return [];
  }
}

function systemBinds(): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const path of usrLinks) {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (stats.isSymbolicLink()) args.push("--symlink", readlinkSync(path), path);
    else args.push("--ro-bind", path, path);
  }
  const entries = [...etcEntries, ...etcPythonEntries()];
  const view = sharedEtcView(entries);
  if (view !== undefined) args.push("--ro-bind", view, "/etc");
  else for (const entry of entries) args.push("--ro-bind-try", `/etc/${entry}`, `/etc/${entry}`);
  return args;
}

// Bound where they really are: a path through a symlink (a project's `.venv` linking to a shared
// virtualenv) cannot be a mount point, and the link itself resolves inside the sandbox once its
// target is there.
function realOrNothing(path: string): string[] {
  try {
    return [realpathSync(path)];
  } catch {
    return [];
  }
}

/**
 * The workdir and the writable paths read-write, the other paths read-only, parents before what lies
 * inside them (a project's `.venv` inside a read-only cache, a workdir inside a read-only home). A
 * path both read and written is written.
 */
function pathBinds(workdir: string, readOnlyPaths: readonly string[], writablePaths: readonly string[]): string[] {
  const binds = new Map<string, "--ro-bind-try" | "--bind">();
  for (const path of readOnlyPaths) if (isAbsolute(path) && path !== "/") binds.set(path, "--ro-bind-try");
  for (const path of writablePaths) if (isAbsolute(path) && path !== "/") binds.set(path, "--bind");
  binds.set(workdir, "--bind");
  return [...binds]
    .sort(([first], [second]) => first.length - second.length)
    .flatMap(([path, flag]) => [flag, path, path]);
}

/**
 * A sandbox made with bubblewrap (Linux user and PID namespaces): a program sees the workdir
 * read-write at its own path; `/usr`, the parts of `/etc` programs need and the paths it is given
 * read-only; a private `/proc`, `/dev`, `/tmp` and HOME (`/tmp/home`); only the environment's
 * allowlist, `passEnv` and its resource's own variables; no network unless `network`. It runs in a
 * PID namespace of its own and dies with the process that started it, and everything it started dies
 * with it (detached or not). File descriptors it is given (a kernel's channel) pass through.
 */
export function createBubblewrapPlacement(settings: BubblewrapPlacementSettings): Placement {
  const network = settings.network ?? false;
  const passEnv = settings.passEnv ?? [];
  const system = systemBinds();
  return {
    kind: "sandbox",
    // bwrap, then its PID namespace's init, then the program.
    wrapperDepth: 2,
    network,
    describe: () =>
      `in a sandbox (bubblewrap ${settings.version}): the workdir read-write, the toolchain read-only, a private /tmp and HOME, ` +
      `the environment's allowlist${passEnv.length > 0 ? ` and ${passEnv.join(", ")}` : ""}, ${network ? "the network" : "no network"}; everything it starts ends with it`,
    place(request: PlacementRequest): PlacedCommand {
      if (!isAbsolute(request.command)) {
        throw new TypeError(
          `A sandboxed program needs an absolute path, not \`${request.command}\`: the sandbox cannot look names up on this machine's PATH. Resolve it first.`,
        );
      }
      const readOnly = [
        ...(settings.readOnlyPaths ?? []),
        ...(request.readOnlyPaths ?? []),
        dirname(request.command),
      ].flatMap(realOrNothing);
      const args = [
        "--unshare-all",
        ...(network ? ["--share-net"] : []),
        // No --new-session: spawnOwnedProcess already gives bwrap a session of its own with no terminal,
        // and keeping the program in bwrap's process group lets a group signal and a group's memory
        // reading reach it.
        "--die-with-parent",
        ...system,
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--dir",
        SANDBOX_HOME,
        ...pathBinds(settings.workdir, readOnly, (request.writablePaths ?? []).flatMap(realOrNothing)),
        "--chdir",
        request.cwd,
        "--",
        request.command,
        ...request.args,
      ];
      // Through bwrap's own environment, not `--setenv`: a value in its arguments would be readable by
      // every process on the machine (/proc/<pid>/cmdline), a channel's secret included.
      return {
        command: settings.bwrap,
        args,
        env: sandboxEnvironment(request.env, [...passEnv, ...(request.ownEnv ?? [])]),
      };
    },
  };
}
