import { vibePlugin } from "./plugin.js";

export { vibePlugin };
export default vibePlugin;
export {
  ENDED_STATUSES,
  hasEnded,
  VibeRoster,
  WORKER_TIERS,
  type ChangeOutcome,
  type SpawnRequest,
  type VibeRosterInstance,
  type WaitOptions,
  type WaitOutcome,
  type WorkerSnapshot,
  type WorkerStatus,
  type WorkerTier,
} from "./vibe-roster.js";
export { createFunctionRoster, type RosterSettings, type RunWorker, type WorkerRunRequest } from "./function-roster.js";
export { createProcessRoster, type ProcessRosterSettings } from "./process-roster.js";
export { connectCallerApprovals, type CallerApprovals } from "./caller-approvals.js";
export { CALLER_APPROVAL_FD, type CallerApprovalResult } from "./caller-approval-protocol.js";
export { type WorkerCallApproval, type WorkerCallApprover } from "./serve-caller-approvals.js";
export { formatAskTiers, WORKER_ENVIRONMENT, workerEnvironment } from "./worker-environment.js";
export type { WorkerCommand, WorkerCommandLine } from "./worker-command.js";
export { vibeSpawnTool } from "./vibe-spawn-tool.js";
export { vibeSendTool } from "./vibe-send-tool.js";
export { vibeWaitTool } from "./vibe-wait-tool.js";
export { vibeKillTool } from "./vibe-kill-tool.js";
export { vibeListTool } from "./vibe-list-tool.js";
export { PACKAGE_VERSION } from "./version.js";
