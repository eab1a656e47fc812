import type { SandboxNeeds as ProgramNeeds } from "@runbound/runtime-kit";
import type { LocatedAdapter } from "./adapter-table.js";
import type { LaunchSetupCache } from "./launch-setup-cache.js";

/** What an adapter run in a sandbox needs of the host besides its own program's folder. */
export interface SandboxNeeds extends ProgramNeeds {
  /** The adapter as it runs there: an interpreter shim replaced by the interpreter itself. */
  located?: LocatedAdapter;
}

/** Where the adapter runs and what it needs there. */
export interface NeedsContext {
  /** The project root (the marker's folder). */
  root: string;
  /** The environment adapters run with on the host. */
  env: NodeJS.ProcessEnv;
  /** The supervisor's cache of what asking a program learnt. */
  cache: LaunchSetupCache;
}
