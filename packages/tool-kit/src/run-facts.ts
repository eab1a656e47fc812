import { defineResource } from "./resource.js";

/** The run's working directory: an absolute path with symlinks resolved. Every path argument stays inside it. */
export const Workdir = defineResource<string>(
  "run.workdir",
  "The run's working directory (absolute, symlinks resolved).",
);

/** The id of the conversation that owns the run; conversation-scoped sessions (debug) key on it. */
export const ConversationId = defineResource<string>(
  "run.conversation_id",
  "The id of the conversation that owns the run.",
);

/** Where questions to a human go (a terminal, a chat thread, an MCP client). */
export interface TargetSpaceInfo {
  /** Stable id of the space, e.g. `terminal` or a thread id. */
  id: string;
  /** How the space is shown to a human. */
  label: string;
}

/** Where questions to a human are rendered. */
export const TargetSpace = defineResource<TargetSpaceInfo>(
  "run.target_space",
  "Where questions to a human are rendered.",
);

/** How background workers of this run behave. */
export interface VibeModeInfo {
  /** The worker tier used when a spawn does not name one. */
  defaultWorkerTier: "fast" | "good";
}

/** Present when the run may spawn background workers. */
export const VibeMode = defineResource<VibeModeInfo>(
  "run.vibe_mode",
  "Present when the run may spawn background workers.",
);
