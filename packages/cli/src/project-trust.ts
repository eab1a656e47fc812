import type { CallerInfo } from "@runbound/tool-kit";
import { UsageError } from "./usage-error.js";

/** Whether the run may start programs from inside its working directory, and how the user changes that. */
export interface ProjectTrustChoice {
  trusted: boolean;
  /** A sentence fragment for messages that name a program passed over, e.g. "run runbound with `--trust-project`". */
  howToTrust: string;
}

/**
 * `--trust-project` / `--no-trust-project`, or by default the caller: a caller that may run programs
 * anyway (ceiling `exec`, as `main`) trusts the project it works in, while a read-only or write-only
 * caller (`plan`, a worker whose ceiling was lowered) must not get to run the checkout's own programs
 * through a read tool (issue 22, item 9).
 */
export function resolveProjectTrust(trustProject: boolean, noTrustProject: boolean, caller: CallerInfo): ProjectTrustChoice {
  if (trustProject && noTrustProject) throw new UsageError("`--trust-project` and `--no-trust-project` contradict each other. Give one of them.");
  if (trustProject) return { trusted: true, howToTrust: "run runbound with `--trust-project`" };
  if (noTrustProject) return { trusted: false, howToTrust: "run runbound without `--no-trust-project`" };
  if (caller.ceiling === "exec") return { trusted: true, howToTrust: "run runbound with `--trust-project`" };
  return { trusted: false, howToTrust: `run runbound with \`--trust-project\` (caller \`${caller.name}\` can only use ${caller.ceiling} tools, so it does not trust them by default)` };
}
