import { randomUUID } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { attachDefaultResources, createRun, type Run } from "@runbound/runner-adapter";
import { ConversationId, ToolError, Workdir, type CallerInfo, type Plugin, type Tier } from "@runbound/tool-kit";
import { connectCallerApprovals, type CallerApprovals } from "@runbound/tool-vibe";
import { askTiersForWorkers, createCliApprovalPolicy } from "./approval-policy.js";
import { attachVibeMode } from "./attach-vibe-mode.js";
import type { EvalPythonChoice, SandboxChoice, VibeWorkers } from "./cli-arguments.js";
import { loadPlugin } from "./load-plugin.js";
import { loadOfficialPlugins } from "./official-plugins.js";
import type { ProjectTrustChoice } from "./project-trust.js";
import { hostPlacement } from "@runbound/runtime-kit";
import { resolveSandboxPlacements } from "./sandbox-placement.js";
import { noteUnattachedResources } from "./unattached-resource-hints.js";
import { UsageError } from "./usage-error.js";

/** What a command needs to open a run. */
export interface OpenRunSettings {
  workdir: string;
  /** `--plugin` values: package names or paths. */
  plugins: readonly string[];
  caller: CallerInfo;
  /** Tiers whose calls need approval; with no approver connected they are denied. */
  askTiers?: readonly Tier[];
  /**
   * Tiers inherited in `RUNBOUND_ASK` from the caller that started this runbound as a worker: asked
   * of that caller over `RUNBOUND_APPROVAL_FD` when its roster gave that channel, denied otherwise.
   */
  workerAskTiers?: readonly Tier[];
  /** Where `RUNBOUND_APPROVAL_FD` is read; default this process's environment. */
  environment?: NodeJS.ProcessEnv;
  /** `--eval-python`. */
  evalPython?: EvalPythonChoice | undefined;
  /** `--parse-cache-mib`, in bytes. */
  parseCacheBytes?: number | undefined;
  /** `--vibe` with its worker commands; undefined leaves vibe mode off (the vibe tools absent). */
  vibe?: VibeWorkers | undefined;
  /** Whether programs inside the workdir may run; undefined: the plugins' defaults (trusted). */
  projectTrust?: ProjectTrustChoice | undefined;
  /** `--sandbox` and its options; undefined: the host, as a library host would have it. */
  sandbox?: SandboxChoice | undefined;
}

/** An opened run, with what `status` needs to explain it. */
export interface OpenedRun {
  run: Run;
  workdir: string;
  plugins: Plugin[];
  /** Resource id → why its provider could not create it. */
  providerFailures: Map<string, string>;
  /** Where each kind of program the run may start runs, for `status`. */
  placements: Array<{ programs: string; where: string }>;
}

// Not placed by --sandbox yet: said in `status`, so nobody takes the sandbox for wider than it is.

function connectToCaller(environment: NodeJS.ProcessEnv): CallerApprovals | undefined {
  try {
    return connectCallerApprovals(environment);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function realWorkdir(path: string): Promise<string> {
  const absolute = resolve(path);
  const stats = await stat(absolute).catch(() => undefined);
  if (stats === undefined || !stats.isDirectory()) {
    throw new ToolError({
      code: "not_found",
      message: `Working directory \`${path}\` does not exist or is not a directory. Pass an existing directory with --workdir.`,
    });
  }
  return realpath(absolute);
}

/**
 * Open a run for a directory: load the official and `--plugin` plugins, attach the run facts
 * (`Workdir`, `ConversationId`) and every plugin's default resources for the workdir, and vibe mode
 * when it is on. Its approval policy asks for the `--ask` tiers and leaves the inherited `RUNBOUND_ASK`
 * ones to the caller that started this runbound as a worker.
 */
export async function openRun(settings: OpenRunSettings): Promise<OpenedRun> {
  const workdir = await realWorkdir(settings.workdir);
  const placements =
    settings.sandbox === undefined ? undefined : await resolveSandboxPlacements(settings.sandbox, workdir);
  const plugins = [
    ...(await loadOfficialPlugins({
      evalPython: settings.evalPython,
      parseCacheBytes: settings.parseCacheBytes,
      projectTrust: settings.projectTrust,
      kernelPlacement: placements?.kernels,
      debugPlacement: placements?.debuggers,
      serverPlacement: placements?.servers,
      workerPlacement: placements?.workers,
    })),
  ];
  for (const specifier of settings.plugins) plugins.push(await loadPlugin(specifier, workdir));
  const workerAskTiers = settings.workerAskTiers ?? [];
  const callerApprovals =
    workerAskTiers.length === 0 ? undefined : connectToCaller(settings.environment ?? process.env);
  const approvals = { askTiers: settings.askTiers ?? [], workerAskTiers, callerApprovals };
  const run = createRun({ plugins, caller: settings.caller, approvalPolicy: createCliApprovalPolicy(approvals) });
  await run.attach(Workdir, { value: workdir });
  await run.attach(ConversationId, { value: randomUUID() });
  const providerFailures = await attachDefaultResources(run, { workdir });
  // The workers get this run's approvals (and, through the roster, its caller's ceiling): vibe_spawn is
  // a read tool nobody approves, so a worker with fewer approvals would be a way around them.
  // What they ask about is decided here as if this run's caller had called it: this run's policy, then
  // its operator (or, for a worker of a worker, this run's own caller in turn).
  if (settings.vibe !== undefined)
    await attachVibeMode(run, workdir, settings.vibe, {
      askTiers: askTiersForWorkers(approvals),
      trustsProject: settings.projectTrust?.trusted ?? true,
      ...(placements === undefined
        ? {}
        : { placement: placements.workers, readOnlyPaths: placements.workerReadOnlyPaths }),
    });
  noteUnattachedResources(run);
  return {
    run,
    workdir,
    plugins,
    providerFailures,
    placements: [
      {
        programs: "eval's kernels (native Python, JavaScript, Pyodide's child)",
        where: (placements?.kernels ?? hostPlacement).describe(),
      },
      {
        programs:
          "debug adapters and the programs they launch (an attach's adapter runs on the host, beside its program)",
        where: (placements?.debuggers ?? hostPlacement).describe(),
      },
      { programs: "vibe workers", where: (placements?.workers ?? hostPlacement).describe() },
      { programs: "language servers and project checkers", where: (placements?.servers ?? hostPlacement).describe() },
    ],
  };
}
