import { askPlugin } from "./plugin.js";

export { askPlugin };
export default askPlugin;
export { createAskPlugin } from "./plugin.js";
export { AskPort, type AskCard, type AskChoice, type AskOption, type AskOptions, type AskOutcome } from "./ask-port.js";
export { createAskUserTool, DEFAULT_ASK_TIMEOUT_MS, type AskUserSettings } from "./ask-user-tool.js";
export { ASK_LIMITS } from "./ask-input-limits.js";
export { presentCard, type PresentedOutcome, type PresentSettings } from "./present-card.js";
export { interpretReply, SKIP_WORD } from "./interpret-reply.js";
export { renderCard } from "./render-card.js";
export type { ReplyReading } from "./resolve-selection.js";
export {
  createInMemoryAskPort,
  type InMemoryAskEvent,
  type InMemoryAskPort,
  type PendingCard,
  type ReplyResult,
} from "./in-memory-ask-port.js";
export { createTerminalAskPort, type TerminalAskPortSettings } from "./terminal-ask-port.js";
export { LineReader, type LineRead } from "./line-reader.js";
export { createElicitationAskPort, type Elicit, type ElicitationAskPortSettings } from "./elicitation-ask-port.js";
export {
  elicitationForm,
  type ElicitFieldSchema,
  type ElicitFormRequest,
  type ElicitResponse,
  type TitledValue,
} from "./elicitation-form.js";
export {
  createPortApprover,
  PERMISSION_CHOICES,
  type PermissionRequest,
  type PortApprover,
  type PortApproverSettings,
} from "./port-approver.js";
export { PACKAGE_VERSION } from "./version.js";
