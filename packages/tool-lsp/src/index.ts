import { lspPlugin } from "./plugin.js";

export { lspPlugin };
export { createLspPlugin, type LspPluginSettings } from "./plugin.js";
export type { ProjectTrust } from "./project-trust.js";
export default lspPlugin;
export {
  createLspSupervisor,
  LspSupervisor,
  type LspSupervisorInstance,
  type LspSupervisorSettings,
  type ServerEntryStatus,
} from "./lsp-supervisor.js";
export { lspTool, LSP_OPS } from "./lsp-tool.js";
export { DEFAULT_SERVERS } from "./default-servers.js";
export type {
  CheckerOutputFormat,
  CommandLine,
  LspServerSpec,
  ProjectChecker,
  ServerRootContext,
} from "./server-spec.js";
export type { FileRoute } from "./route-file.js";
export { LanguageServerSession, type SessionExit } from "./language-server-session.js";
export type { ActiveProgress } from "./progress-tracker.js";
export { characterInEncoding, utf16IndexFromCharacter, type PositionEncoding } from "./position-encoding.js";
export { PACKAGE_VERSION } from "./version.js";
export { lspDiagnosticsObserver } from "./diagnostics-observer.js";
export { DiagnosticsLedger, diagnosticKey, normaliseMessage, type DiagnosticsDelta } from "./diagnostics-ledger.js";
export { lspRenameTool } from "./rename-tool.js";
export { planWorkspaceEdit, applyTextEdits, type PlannedEdit, type PlannedFile } from "./plan-workspace-edit.js";
