import type { LaunchSetupCache } from "./launch-setup-cache.js";

/** Where the adapter runs and what it needs there. */
export interface NeedsContext {
  /** The project root (the marker's folder). */
  root: string;
  /** The environment adapters run with on the host. */
  env: NodeJS.ProcessEnv;
  /** The supervisor's cache of what asking a program learnt. */
  cache: LaunchSetupCache;
}
