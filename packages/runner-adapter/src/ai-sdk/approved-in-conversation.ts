interface MessagePart {
  type: string;
  toolCallId?: string;
  approvalId?: string;
  approved?: boolean;
  isAutomatic?: boolean;
}

interface ConversationMessage {
  role: string;
  content: string | readonly MessagePart[];
}

/**
 * Whether the messages the AI SDK hands to a tool's `execute` hold its user's yes to this very call: an
 * approval request for `toolCallId` (not an automatic one) answered `approved: true` in the last tool
 * message. ai 6 and 7 execute an approved call at the start of the next `generateText` with exactly
 * those messages; a call approved any other way (or by nobody) finds none.
 */
export function approvedInConversation(messages: readonly ConversationMessage[], toolCallId: string): boolean {
  const requested = new Set(
    messages
      .filter((message) => message.role === "assistant")
      .flatMap((message) => (typeof message.content === "string" ? [] : message.content))
      .filter(
        (part) => part.type === "tool-approval-request" && part.toolCallId === toolCallId && part.isAutomatic !== true,
      )
      .map((part) => part.approvalId),
  );
  const last = messages.at(-1);
  if (last?.role !== "tool" || typeof last.content === "string") return false;
  return last.content.some(
    (part) => part.type === "tool-approval-response" && part.approved === true && requested.has(part.approvalId),
  );
}
