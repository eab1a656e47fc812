export { serveRunOverMcp, type McpServeSettings } from "./serve-run-over-mcp.js";
export { createElicitationApprover } from "./elicitation-approver.js";
export { mcpClientSession, type McpClientSession } from "./mcp-client-session.js";
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  oversizedMessageError,
  SizeLimitedStdioServerTransport,
  type OversizedAnswer,
  type SizeLimitedStdioSettings,
} from "./size-limited-stdio-server-transport.js";
export type { OversizedMessage } from "./message-size-gate.js";
