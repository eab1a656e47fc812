import { describe, expect, it } from "vitest";
import { formatAskTiers, workerEnvironment } from "./worker-environment.js";

const request = { tier: "fast", ceiling: "write", workerId: "w3", run: 2 } as const;

describe("workerEnvironment", () => {
  it("states the tier, ceiling, id and run, and the approval tiers only when the host gave them", () => {
    expect(workerEnvironment(request)).toEqual({
      RUNBOUND_WORKER_TIER: "fast",
      RUNBOUND_CEILING: "write",
      RUNBOUND_WORKER_ID: "w3",
      RUNBOUND_WORKER_RUN: "2",
    });
    expect(workerEnvironment(request, ["write", "exec"])).toMatchObject({ RUNBOUND_ASK: "write,exec" });
  });

  it("writes no tiers as `none`, never as an empty value a worker would read as unset, and each tier once", () => {
    expect(formatAskTiers([])).toBe("none");
    expect(formatAskTiers(["exec", "write", "exec"])).toBe("exec,write");
  });
});
