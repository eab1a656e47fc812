import { createRun, type ApprovalRequest } from "@runbound/runner-adapter";
import { definePlugin, defineTool, resultErrorCode, resultText, type Tier } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import type { CallerApprovals } from "@runbound/tool-vibe";
import { askTiersForWorkers, createCliApprovalPolicy } from "./approval-policy.js";

const tierTool = (name: string, tier: Tier) =>
  defineTool({
    name,
    title: name,
    tier,
    description: `A ${tier} tool for tests.`,
    input: v.strictObject({}),
    requires: [],
    parallelSafe: true,
    run: async () => `${name} ran`,
  });

const plugin = definePlugin({
  name: "approval-test",
  version: "0.0.0",
  tools: [tierTool("look", "read"), tierTool("save", "write"), tierTool("launch", "exec")],
});

/** A run with the CLI's policy and an approver that says yes and remembers what it was asked. */
function runWith(askTiers: Tier[], workerAskTiers: Tier[], callerApprovals?: CallerApprovals) {
  const asked: string[] = [];
  const approver = { approve: async (request: ApprovalRequest) => (asked.push(request.tool.name), true) };
  return {
    run: createRun({
      plugins: [plugin],
      approvalPolicy: createCliApprovalPolicy({ askTiers, workerAskTiers, callerApprovals }),
      approver,
    }),
    asked,
  };
}

/** The worker's end of an approval channel whose caller approves `save` only, and remembers what it was asked. */
function callerApproving(approved: string) {
  const askedCaller: Array<{ tool: string; input: unknown }> = [];
  const callerApprovals: CallerApprovals = {
    approve: async (tool, input) => {
      askedCaller.push({ tool, input });
      return tool === approved
        ? { approved: true }
        : { approved: false, message: `Calling \`${tool}\` was denied by the operator.` };
    },
    dispose: () => undefined,
  };
  return { callerApprovals, askedCaller };
}

describe("createCliApprovalPolicy", () => {
  it("asks this run's approver for the --ask tiers and allows the rest", async () => {
    const { run, asked } = runWith(["write"], []);
    expect(resultText(await run.call("save", {}))).toBe("save ran");
    expect(resultText(await run.call("launch", {}))).toBe("launch ran");
    expect(asked).toEqual(["save"]);
  });

  it("asks the worker's caller over its approval channel for the tiers it asks about, not this run's approver", async () => {
    const { callerApprovals, askedCaller } = callerApproving("save");
    const { run, asked } = runWith([], ["write", "exec"], callerApprovals);
    expect(resultText(await run.call("save", {}))).toBe("save ran");
    const denied = await run.call("launch", {});
    expect(resultErrorCode(denied)).toBe("denied");
    expect(resultText(denied)).toBe(
      "Error (denied): Calling `launch` needs approval: this runbound runs as a worker, the run that started it asks before `exec` calls (RUNBOUND_ASK=write,exec), and the caller answered: Calling `launch` was denied by the operator. Do not retry; finish what you can without it and report that this step needs `launch`, so the caller can do it or approve it.",
    );
    expect(resultText(await run.call("look", {}))).toBe("look ran");
    expect(askedCaller).toEqual([
      { tool: "save", input: {} },
      { tool: "launch", input: {} },
    ]);
    expect(asked).toEqual([]);
  });

  it("still asks this run's approver, after the caller approved, when --ask names the tier too", async () => {
    const { callerApprovals, askedCaller } = callerApproving("save");
    const { run, asked } = runWith(["write"], ["write"], callerApprovals);
    expect(resultText(await run.call("save", {}))).toBe("save ran");
    expect(askedCaller).toHaveLength(1);
    expect(asked).toEqual(["save"]);
  });

  it("denies a tier the worker's caller asks about without asking anyone here, even an approver that would say yes", async () => {
    const { run, asked } = runWith(["write"], ["write", "exec"]);
    const denied = await run.call("launch", {});
    expect(resultErrorCode(denied)).toBe("denied");
    expect(resultText(denied)).toBe(
      "Error (denied): Calling `launch` needs approval: this runbound runs as a worker, the run that started it asks before `exec` calls (RUNBOUND_ASK=write,exec), and no operator of that caller can be reached from this worker, so it was denied. Do not retry; finish what you can without it and report that this step needs `launch`, so the caller can do it or approve it.",
    );
    expect(resultErrorCode(await run.call("save", {}))).toBe("denied");
    expect(resultText(await run.call("look", {}))).toBe("look ran");
    expect(asked).toEqual([]);
  });

  it("hands a worker every tier this run asks about, for either reason, each once", () => {
    expect(askTiersForWorkers({ askTiers: ["write", "exec"], workerAskTiers: ["exec"] })).toEqual(["exec", "write"]);
    expect(askTiersForWorkers({ askTiers: [], workerAskTiers: [] })).toEqual([]);
  });
});
