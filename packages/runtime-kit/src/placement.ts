/**
 * Where a resource's programs run. The host decides (a CLI flag, a platform's policy) and configures
 * each resource factory with a placement; a resource never starts a sandbox on its own. `host` runs a
 * program as it is; `sandbox` (see `createBubblewrapPlacement`) shows it the workdir and the toolchain
 * it needs and nothing else of the machine.
 */
export interface Placement {
  /** `host` or `sandbox`. */
  readonly kind: "host" | "sandbox";
  /** One line for `status`: where programs run and what they see, e.g. "in a sandbox (bubblewrap 0.8.0): the workdir read-write, …, no network". */
  describe(): string;
  /** The command that runs `request` in this placement. */
  place(request: PlacementRequest): PlacedCommand;
  /**
   * How many processes stand between the spawned one and the program: 0 on the host; a sandbox's
   * wrapper and its namespace's init make 2. A signal meant for the program (SIGINT to interrupt a
   * cell) goes to the program, not the wrapper, which would end the whole sandbox.
   */
  readonly wrapperDepth: number;
  /** Whether its programs can use the network (a program that needs it, such as `pip install`, says how to allow it when not). */
  readonly network: boolean;
}

/** One program to start, and what of the machine it needs besides what the placement always gives. */
export interface PlacementRequest {
  /** The program: an absolute path (a sandbox cannot look a name up on the host's PATH). */
  command: string;
  args: readonly string[];
  /** Its working directory (inside the workdir, or a path it is given read-only). */
  cwd: string;
  /** The environment the resource would give it on the host. A sandbox passes only part of it. */
  env: NodeJS.ProcessEnv;
  /** Variables of `env` the resource set itself and the program needs (a channel's secret, its own settings): always passed. */
  ownEnv?: readonly string[];
  /** Host paths the program reads (its interpreter's prefix, a virtual environment, its own scripts): bound read-only, at the same path. */
  readOnlyPaths?: readonly string[];
  /**
   * Host directories the program writes besides the workdir (a debug session's build output and
   * socket, a build cache of its own): bound read-write, at the same path. Never a host directory
   * other programs rely on: what the program leaves there is what a later reader finds.
   */
  writablePaths?: readonly string[];
}

/** What to spawn: the placement's own wrapper (or the program itself) with the environment it gets. */
export interface PlacedCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** Programs run as they are, with the host's files, network and environment. */
export const hostPlacement: Placement = Object.freeze({
  kind: "host" as const,
  wrapperDepth: 0,
  network: true,
  describe: () => "on the host, with this machine's files, network and environment",
  place: (request: PlacementRequest): PlacedCommand => ({
    command: request.command,
    args: [...request.args],
    env: request.env,
  }),
});
