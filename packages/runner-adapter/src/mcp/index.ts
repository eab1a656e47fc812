export {
  serveRunOverMcp,
  DEFAULT_ANSWER_TIMEOUT_MS,
  type McpServe,
  type McpServeSettings,
} from "./serve-run-over-mcp.js";
export { createElicitationApprover } from "./elicitation-approver.js";
export { mcpClientSession, type DeclaredClient, type McpClientSession } from "./mcp-client-session.js";
export type { FormQuestion } from "./question-board.js";
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  oversizedMessageError,
  SizeLimitedStdioServerTransport,
  type OversizedAnswer,
  type SizeLimitedStdioSettings,
} from "./size-limited-stdio-server-transport.js";
export type { OversizedMessage } from "./message-size-gate.js";
