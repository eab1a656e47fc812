import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBubblewrapPlacement, detectBubblewrap, hostPlacement, type Placement } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import type { SandboxChoice } from "./cli-arguments.js";
import { WORKER_TRUST_VARIABLE } from "./project-trust.js";

/** Where the run's programs go, per kind. */
export interface SandboxPlacements {
  /** eval's kernels: no network unless `--allow-network`. */
  kernels: Placement;
  /** debug adapters and the programs they launch: as the kernels. */
  debuggers: Placement;
  /** language servers and project checkers: as the kernels with `--sandbox-servers`, else the host. */
  servers: Placement;
  /** vibe workers: the network on (their model's API), `--worker-env` and the worker variables passed. */
  workers: Placement;
  /** Host paths a sandboxed worker reads: this runbound's installation (so `runbound session` works) and `--worker-read`. */
  workerReadOnlyPaths: string[];
}

/**
 * The directory this runbound is installed in, with the packages it loads: the nearest folder above
 * its own package that holds `node_modules/@runbound` (a project that installed it, or this checkout).
 */
function runboundInstallation(): string {
  let directory = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
  for (let parent = dirname(directory); parent !== directory; directory = parent, parent = dirname(directory)) {
    if (existsSync(join(directory, "node_modules", "@runbound"))) return directory;
  }
  return realpathSync(fileURLToPath(new URL("..", import.meta.url)));
}

function hostBecause(why: string): Placement {
  return { ...hostPlacement, describe: () => `${hostPlacement.describe()} (${why})` };
}

/**
 * Where the run's sandboxed resources put their programs: `--sandbox auto` (the default) takes a
 * bubblewrap sandbox where one works here and the host otherwise, saying why in `status`;
 * `required` refuses to open a run without one; `off` is the host, on purpose.
 *
 * @throws ToolError `unavailable` under `required` when no sandbox can be made here, naming why.
 */
export async function resolveSandboxPlacements(choice: SandboxChoice, workdir: string): Promise<SandboxPlacements> {
  const workerReadOnlyPaths = [runboundInstallation(), ...choice.workerRead];
  if (choice.mode === "off")
    return {
      kernels: hostBecause("--sandbox off"),
      debuggers: hostBecause("--sandbox off"),
      servers: hostBecause("--sandbox off"),
      workers: hostBecause("--sandbox off"),
      workerReadOnlyPaths,
    };
  const bubblewrap = await detectBubblewrap();
  if (bubblewrap.available) {
    const made = { bwrap: bubblewrap.bwrap, version: bubblewrap.version, workdir };
    const programs = createBubblewrapPlacement({ ...made, network: choice.allowNetwork, passEnv: choice.passEnv });
    return {
      kernels: programs,
      debuggers: programs,
      servers: choice.sandboxServers ? programs : hostBecause("without --sandbox-servers"),
      // A worker of a run that does not trust the project must hear it inside the sandbox too.
      workers: createBubblewrapPlacement({
        ...made,
        network: true,
        passEnv: [...choice.passEnv, ...choice.workerEnv, WORKER_TRUST_VARIABLE],
      }),
      workerReadOnlyPaths,
    };
  }
  if (choice.mode === "required") {
    throw new ToolError({
      code: "unavailable",
      message: `--sandbox required, but no sandbox can be made here: ${bubblewrap.reason}. Install bubblewrap, or run with --sandbox auto to fall back to the host.`,
    });
  }
  const fallback = hostBecause(`no sandbox: ${bubblewrap.reason}; --sandbox required would refuse to run`);
  return { kernels: fallback, debuggers: fallback, servers: fallback, workers: fallback, workerReadOnlyPaths };
}
