import { describe, expect, it } from "vitest";
import { Counter, examplePlugin } from "./__fixtures__/example-plugin.js";
import { askFor, type Approver } from "./approval.js";
import { takeApprovedCall, withApprovedCall } from "./approved-call-scope.js";
import { createRun } from "./create-run.js";

function countingApprover(answer: boolean): Approver & { asked: string[] } {
  const asked: string[] = [];
  return { asked, approve: async (request) => (asked.push(request.tool.name), answer) };
}

async function counterRun(policy: ReturnType<typeof askFor>, approver: Approver) {
  const run = createRun({ plugins: [examplePlugin], approvalPolicy: policy, approver });
  const counter = { count: 0 };
  await run.attach(Counter, { value: counter });
  return { run, counter };
}

describe("withApprovedCall", () => {
  it("grants one approval check, for the named tool only", async () => {
    expect(takeApprovedCall("bump")).toBe(false);
    await withApprovedCall("bump", async () => {
      expect(takeApprovedCall("bump")).toBe(true);
      expect(takeApprovedCall("bump")).toBe(false);
    });
    await withApprovedCall("bump", async () => {
      expect(takeApprovedCall("peek")).toBe(false);
      expect(takeApprovedCall("bump")).toBe(false);
    });
  });

  it("lets an approved call run without asking the run's approver, once", async () => {
    const approver = countingApprover(false);
    const { run, counter } = await counterRun(askFor(["write"]), approver);
    const approved = await withApprovedCall("bump", () => run.call("bump", { by: 2 }));
    expect(approved).toEqual({ content: [{ type: "text", text: "now 2" }] });
    expect(approver.asked).toEqual([]);
    const later = await run.call("bump", { by: 2 });
    expect(later.isError).toBe(true);
    expect(approver.asked).toEqual(["bump"]);
    expect(counter.count).toBe(2);
  });

  it("does not turn the policy's deny into an allow", async () => {
    const approver = countingApprover(true);
    const run = createRun({ plugins: [examplePlugin], approvalPolicy: () => "deny", approver });
    await run.attach(Counter, { value: { count: 0 } });
    const result = await withApprovedCall("bump", () => run.call("bump", { by: 2 }));
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: expect.stringContaining("Calling `bump` was denied") }]);
  });

  it("does not pass to a call through ctx.callTool, even of the same tool's name", async () => {
    const approver = countingApprover(false);
    const { run, counter } = await counterRun(askFor(["read", "write"]), approver);
    const result = await withApprovedCall("relay", () => run.call("relay", { tool: "bump", input: { by: 1 } }));
    expect(approver.asked).toEqual(["bump"]);
    expect(counter.count).toBe(0);
    expect(result.isError).toBe(true);
  });

  it("leaves a grant for another tool unused: that call is asked about as usual", async () => {
    const approver = countingApprover(true);
    const { run, counter } = await counterRun(askFor(["write"]), approver);
    await withApprovedCall("peek", () => run.call("bump", { by: 3 }));
    expect(approver.asked).toEqual(["bump"]);
    expect(counter.count).toBe(3);
  });
});
