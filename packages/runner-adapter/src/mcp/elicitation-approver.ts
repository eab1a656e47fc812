import type { Approver } from "../approval.js";
import type { McpClientSession } from "./mcp-client-session.js";

// Enough of the input for a human to judge the call, without pasting a whole file into the prompt.
const maxShownInput = 500;

function shownInput(input: unknown): string {
  const text = JSON.stringify(input) ?? String(input);
  return text.length > maxShownInput ? `${text.slice(0, maxShownInput)}… (${text.length} characters)` : text;
}

/** An approver that asks the MCP client's user with a form ("accept" with approve=true allows). */
export function createElicitationApprover(client: Pick<McpClientSession, "elicit">): Approver {
  return {
    async approve(request, signal) {
      const answer = await client.elicit(
        {
          message: `Allow \`${request.tool.name}\` (${request.tool.tier}) with input ${shownInput(request.input)}?`,
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
