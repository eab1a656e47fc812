export { serveRunOverMcp, type McpServeSettings } from "./serve-run-over-mcp.js";
export { createElicitationApprover } from "./elicitation-approver.js";
export { mcpClientSession, type McpClientSession } from "./mcp-client-session.js";
