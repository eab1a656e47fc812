import { createBubblewrapPlacement, detectBubblewrap, hostPlacement, type Placement } from "@runbound/process-kit";
import { ToolError } from "@runbound/tool-kit";
import type { SandboxChoice } from "./cli-arguments.js";

/**
 * Where the run's sandboxed resources put their programs: `--sandbox auto` (the default) takes a
 * bubblewrap sandbox where one works here and the host otherwise, saying why in `status`;
 * `required` refuses to open a run without one; `off` is the host, on purpose.
 *
 * @throws ToolError `unavailable` under `required` when no sandbox can be made here, naming why.
 */
export async function resolveSandboxPlacement(choice: SandboxChoice, workdir: string): Promise<Placement> {
  if (choice.mode === "off") return { ...hostPlacement, describe: () => `${hostPlacement.describe()} (--sandbox off)` };
  const bubblewrap = await detectBubblewrap();
  if (bubblewrap.available) {
    return createBubblewrapPlacement({ bwrap: bubblewrap.bwrap, version: bubblewrap.version, workdir, network: choice.allowNetwork, passEnv: choice.passEnv });
  }
  if (choice.mode === "required") {
    throw new ToolError({ code: "unavailable", message: `--sandbox required, but no sandbox can be made here: ${bubblewrap.reason}. Install bubblewrap, or run with --sandbox auto to fall back to the host.` });
  }
  return { ...hostPlacement, describe: () => `${hostPlacement.describe()} (no sandbox: ${bubblewrap.reason}; --sandbox required would refuse to run)` };
}
