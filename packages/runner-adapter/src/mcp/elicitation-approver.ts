import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Approver } from "../approval.js";
import { formElicitation } from "./mcp-client-session.js";

// Enough of the input for a human to judge the call, without pasting a whole file into the prompt.
const maxShownInput = 500;

function shownInput(input: unknown): string {
  const text = JSON.stringify(input) ?? String(input);
  return text.length > maxShownInput ? `${text.slice(0, maxShownInput)}… (${text.length} characters)` : text;
}

/** An approver that asks the MCP client's user through elicitation ("accept" with approve=true allows). */
export function createElicitationApprover(server: Server): Approver {
  const elicit = formElicitation(server);
  return {
    async approve(request, signal) {
      const answer = await elicit(
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
