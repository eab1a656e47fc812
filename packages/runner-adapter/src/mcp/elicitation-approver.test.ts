import { describe, expect, it, vi } from "vitest";
import { bump } from "../__fixtures__/example-plugin.js";
import { createElicitationApprover } from "./elicitation-approver.js";

describe("createElicitationApprover", () => {
  it("shows at most 500 characters of a long input and approves only an accepted `approve: true`", async () => {
    const elicit = vi.fn().mockResolvedValueOnce({ action: "accept", content: { approve: false } });
    const approver = createElicitationApprover({ elicit });
    const input = { by: 1, file: "x".repeat(2_000) };
    const approved = await approver.approve(
      { tool: bump, input, caller: { name: "main", ceiling: "exec" }, runId: "r" },
      new AbortController().signal,
    );
    expect(approved).toBe(false);
    const message = elicit.mock.calls[0]![0].message as string;
    expect(message.length).toBeLessThan(600);
    expect(message).toContain(`… (${JSON.stringify(input).length} characters)?`);
  });
});
