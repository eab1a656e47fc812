import { describe, expect, it } from "vitest";
import { approvedInConversation } from "./approved-in-conversation.js";

const request = (approvalId: string, toolCallId: string, extra: Record<string, unknown> = {}) => ({
  type: "tool-approval-request",
  approvalId,
  toolCallId,
  ...extra,
});
const response = (approvalId: string, approved: boolean) => ({ type: "tool-approval-response", approvalId, approved });
const assistant = (...content: unknown[]) =>
  ({ role: "assistant", content: [{ type: "tool-call", toolCallId: "call-1" }, ...content] }) as never;
const tool = (...content: unknown[]) => ({ role: "tool", content }) as never;

describe("approvedInConversation", () => {
  it("finds the user's yes to this very call in the last tool message", () => {
    expect(
      approvedInConversation(
        [{ role: "user", content: "go" }, assistant(request("a-1", "call-1")), tool(response("a-1", true))],
        "call-1",
      ),
    ).toBe(true);
  });

  it("refuses a no, another call's approval, an automatic approval, or an answer that is not the last message", () => {
    expect(approvedInConversation([assistant(request("a-1", "call-1")), tool(response("a-1", false))], "call-1")).toBe(
      false,
    );
    expect(approvedInConversation([assistant(request("a-1", "call-2")), tool(response("a-1", true))], "call-1")).toBe(
      false,
    );
    expect(
      approvedInConversation(
        [assistant(request("a-1", "call-1", { isAutomatic: true })), tool(response("a-1", true))],
        "call-1",
      ),
    ).toBe(false);
    expect(
      approvedInConversation(
        [assistant(request("a-1", "call-1")), tool(response("a-1", true)), { role: "user", content: "again" }],
        "call-1",
      ),
    ).toBe(false);
    expect(
      approvedInConversation([{ role: "assistant", content: "text only" }, tool(response("a-1", true))], "call-1"),
    ).toBe(false);
    expect(approvedInConversation([assistant(request("a-1", "call-1")), tool(response("a-2", true))], "call-1")).toBe(
      false,
    );
    expect(
      approvedInConversation(
        [assistant(request("a-1", "call-1")), { role: "user", content: [response("a-1", true)] } as never],
        "call-1",
      ),
    ).toBe(false);
  });

  it("finds this call's yes among the answers to several calls", () => {
    const messages = [
      assistant(request("a-1", "call-1"), request("a-2", "call-2")),
      tool(response("a-2", false), response("a-1", true)),
    ];
    expect(approvedInConversation(messages, "call-1")).toBe(true);
    expect(approvedInConversation(messages, "call-2")).toBe(false);
  });

  it("does not take an answer without an approval id for the answer to a call's parts that have none", () => {
    expect(
      approvedInConversation([assistant(), tool({ type: "tool-approval-response", approved: true })], "call-1"),
    ).toBe(false);
  });

  it("does not take a request made by a tool message for one made by the assistant", () => {
    expect(approvedInConversation([tool(request("a-1", "call-1"), response("a-1", true))], "call-1")).toBe(false);
    expect(approvedInConversation([], "call-1")).toBe(false);
    expect(
      approvedInConversation(
        [assistant(request("a-1", "call-1")), { role: "tool", content: "a-1 approved" } as never],
        "call-1",
      ),
    ).toBe(false);
  });
});
