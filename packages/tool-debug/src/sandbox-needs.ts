import type { LocatedAdapter } from "./adapter-table.js";
import type { LaunchSetupCache } from "./launch-setup-cache.js";

/** What an adapter run in a sandbox needs of the host besides its own program's folder. */
export interface SandboxNeeds {
  /** Host paths it reads (an interpreter's prefix, a toolchain), bound read-only. */
  readOnlyPaths: string[];
  /** Host folders it writes (a build cache of its own), bound read-write. */
  writablePaths: string[];
  /** Variables it is given (they pass the sandbox's environment allowlist). */
  env: Record<string, string>;
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
