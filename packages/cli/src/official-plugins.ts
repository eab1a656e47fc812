import type { Placement } from "@runbound/runtime-kit";
import type { Plugin } from "@runbound/tool-kit";
import type { EvalPythonChoice } from "./cli-arguments.js";
import { withPlacementNote } from "./placement-note.js";
import type { ProjectTrustChoice } from "./project-trust.js";

/** What the official plugins take from the command line. */
export interface OfficialPluginSettings {
  /** `--eval-python`: which Python kernel eval's default factory starts. */
  evalPython?: EvalPythonChoice | undefined;
  /** `--parse-cache-mib` in bytes: the budget of the parse cache of ast-grep's default parser. */
  parseCacheBytes?: number | undefined;
  /** `--trust-project` resolved: whether the language servers and checkers may come from inside the workdir. */
  projectTrust?: ProjectTrustChoice | undefined;
  /** `--sandbox` resolved: where eval's kernels run. */
  kernelPlacement?: Placement | undefined;
  /** `--sandbox` resolved: where debug adapters and the programs they launch run. */
  debugPlacement?: Placement | undefined;
  /** `--sandbox` and `--sandbox-servers` resolved: where language servers and project checkers run. */
  serverPlacement?: Placement | undefined;
  /** `--sandbox` resolved: where vibe workers run. */
  workerPlacement?: Placement | undefined;
}

/** The plugin with its tools' descriptions saying where `programs` run, when the placement is known. */
function noted(plugin: Plugin, programs: string, placement: Placement | undefined): Plugin {
  return placement === undefined ? plugin : withPlacementNote(plugin, programs, placement);
}

/**
 * The plugins the reference runner always loads: every official tool package, the file tools included
 * (batteries included). Loaded lazily so `--help` stays fast and a broken native addon only fails the
 * commands that need tools.
 */
export async function loadOfficialPlugins(settings: OfficialPluginSettings = {}): Promise<Plugin[]> {
  const [files, astgrep, lsp, evalPackage, debug, ask, vibe] = await Promise.all([
    import("@runbound/tool-files"),
    import("@runbound/tool-astgrep"),
    import("@runbound/tool-lsp"),
    import("@runbound/tool-eval"),
    import("@runbound/tool-debug"),
    import("@runbound/tool-ask"),
    import("@runbound/tool-vibe"),
  ]);
  const kernelFactory = {
    ...(settings.evalPython === undefined ? {} : { python: settings.evalPython }),
    ...(settings.kernelPlacement === undefined ? {} : { placement: settings.kernelPlacement }),
  };
  const evalPlugin =
    Object.keys(kernelFactory).length === 0
      ? evalPackage.default
      : evalPackage.createEvalPlugin({ factory: kernelFactory });
  const astgrepPlugin =
    settings.parseCacheBytes === undefined
      ? astgrep.default
      : astgrep.createAstGrepPlugin({ parser: { parseCacheBytes: settings.parseCacheBytes } });
  const lspSupervisor = {
    ...(settings.projectTrust === undefined ? {} : { projectTrust: settings.projectTrust }),
    ...(settings.serverPlacement === undefined ? {} : { placement: settings.serverPlacement }),
  };
  const lspPlugin =
    Object.keys(lspSupervisor).length === 0 ? lsp.default : lsp.createLspPlugin({ supervisor: lspSupervisor });
  const debugPlugin =
    settings.debugPlacement === undefined
      ? debug.default
      : debug.createDebugPlugin({ supervisor: { placement: settings.debugPlacement } });
  // A read tool on the host is the norm; lsp says where its servers run only when they are sandboxed.
  const lspPlacement = settings.serverPlacement?.kind === "sandbox" ? settings.serverPlacement : undefined;
  return [
    files.default,
    astgrepPlugin,
    noted(lspPlugin, "its language servers and project checkers", lspPlacement),
    noted(evalPlugin, "the kernels", settings.kernelPlacement),
    noted(debugPlugin, "the debug adapter and the program it launches", settings.debugPlacement),
    ask.default,
    noted(vibe.default, "the workers", settings.workerPlacement),
  ];
}
