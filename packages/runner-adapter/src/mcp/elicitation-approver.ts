import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Approver } from "../approval.js";

/** An approver that asks the MCP client's user through elicitation ("accept" with approve=true allows). */
export function createElicitationApprover(server: Server): Approver {
  return {
    async approve(request, signal) {
      const answer = await server.elicitInput(
        {
          mode: "form",
          message: `Allow \`${request.tool.name}\` (${request.tool.tier}) with input ${JSON.stringify(request.input)}?`,
          requestedSchema: {
            type: "object",
            properties: { approve: { type: "boolean", title: "Allow this call", description: "Allow this one call." } },
            required: ["approve"],
          },
        },
        { signal },
      );
      return answer.action === "accept" && answer.content?.["approve"] === true;
    },
  };
}
