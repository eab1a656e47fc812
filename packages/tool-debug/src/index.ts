import { createDebugPlugin, debugPlugin, type DebugPluginSettings } from "./plugin.js";

export { createDebugPlugin, debugPlugin, type DebugPluginSettings };
export default debugPlugin;
export {
  createDebugSupervisor,
  DebugSupervisor,
  type ConversationStatus,
  type DebugSupervisorInstance,
  type DebugSupervisorSettings,
  type StartRequest,
} from "./debug-supervisor.js";
export { debugTool, DEBUG_OPS } from "./debug-tool.js";
export {
  ADAPTERS,
  type AdapterDefinition,
  type AdapterId,
  type AdapterTransport,
  type LaunchRequest,
  type LocateContext,
  type LocatedAdapter,
  type NotLocated,
} from "./adapter-table.js";
export type { AdapterAvailability } from "./adapter-availability.js";
export {
  DebugSession,
  type BreakpointRow,
  type ExecutionOutcome,
  type SessionState,
  type StopEvent,
} from "./debug-session.js";
export { DapConnection, DapNoAnswer, DapRequestFailed, type EventWait } from "./dap-connection.js";
export { DapFramer, DapFramingError, encodeDapMessage } from "./dap-framer.js";
export { PACKAGE_VERSION } from "./version.js";
