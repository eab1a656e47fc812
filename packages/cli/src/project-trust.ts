import type { CallerInfo } from "@runbound/tool-kit";
import { UsageError } from "./usage-error.js";

/** Whether the run may start programs from inside its working directory, and how the user changes that. */
export interface ProjectTrustChoice {
  trusted: boolean;
  /** A sentence fragment for messages that name a program passed over, e.g. "run runbound with `--trust-project`". */
  howToTrust: string;
}

/**
 * The environment variable a runbound in vibe mode sets to `no` for its workers when its own run does
 * not trust the project: a worker is never allowed more than its caller.
 */
export const WORKER_TRUST_VARIABLE = "RUNBOUND_TRUST_PROJECT";

function inheritedDistrust(environment: NodeJS.ProcessEnv, trustProject: boolean): boolean {
  const value = environment[WORKER_TRUST_VARIABLE];
  if (value === undefined) return false;
  if (value !== "no")
    throw new UsageError(
      `The environment variable ${WORKER_TRUST_VARIABLE} is ${value === "" ? "empty" : `\`${value}\``}: the only value is \`no\` (set by the run that started this runbound as a worker). Unset it, or set it to no.`,
    );
  if (trustProject)
    throw new UsageError(
      `\`--trust-project\` cannot lift ${WORKER_TRUST_VARIABLE}=no: the run that started this runbound as a worker does not trust the project, and a worker is never allowed more than its caller. Drop \`--trust-project\` from the worker's command line.`,
    );
  return true;
}

/**
 * `--trust-project` / `--no-trust-project`, or by default the caller: a caller that may run programs
 * anyway (ceiling `exec`, as `main`) trusts the project it works in, while a read-only or write-only
 * caller (`plan`, a worker whose ceiling was lowered) must not get to run the checkout's own programs
 * through a read tool (issue 22, item 9). A worker whose caller did not trust the project
 * (`RUNBOUND_TRUST_PROJECT=no`) does not either.
 */
export function resolveProjectTrust(
  trustProject: boolean,
  noTrustProject: boolean,
  caller: CallerInfo,
  environment: NodeJS.ProcessEnv = {},
): ProjectTrustChoice {
  if (trustProject && noTrustProject)
    throw new UsageError("`--trust-project` and `--no-trust-project` contradict each other. Give one of them.");
  if (inheritedDistrust(environment, trustProject))
    return {
      trusted: false,
      howToTrust: `ask the user to run the caller with \`--trust-project\` (this runbound is a worker of a run that does not trust the project: ${WORKER_TRUST_VARIABLE}=no)`,
    };
  if (trustProject) return { trusted: true, howToTrust: "run runbound with `--trust-project`" };
  if (noTrustProject) return { trusted: false, howToTrust: "run runbound without `--no-trust-project`" };
  if (caller.ceiling === "exec") return { trusted: true, howToTrust: "run runbound with `--trust-project`" };
  return {
    trusted: false,
    howToTrust: `run runbound with \`--trust-project\` (caller \`${caller.name}\` can only use ${caller.ceiling} tools, so it does not trust them by default)`,
  };
}
