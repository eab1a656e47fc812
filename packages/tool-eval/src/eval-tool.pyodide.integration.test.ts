import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { describe, expect, it } from "vitest";
import { evalTool } from "./eval-tool.js";
import { createHostKernelFactory } from "./host-kernel-factory.js";
import { KernelFactory } from "./kernel.js";
import { fixtureProject } from "./test-support/python-fixtures.js";

describe("eval on the factory's Pyodide", () => {
  it("auto falls back to Pyodide when no CPython resolves; magics that run programs are refused there", async () => {
    const factory = createHostKernelFactory({ pythonCandidates: ["/nonexistent/python3"] });
    const workdir = fixtureProject();
    const run = createFakeRun({
      tools: [evalTool],
      resources: [
        [KernelFactory, factory],
        [Workdir, workdir],
      ],
    });
    const call = (code: string) => run.call("eval", { code, description: "check what the pyodide kernel answers" });
    try {
      expect((await factory.describe(workdir))[0]!.kind).toBe("pyodide");
      expect(resultText(await call("x = 20\nx + 22"))).toMatch(/^\[started Pyodide[^\]]*\]\n42$/);
      expect(resultText(await call("!ls"))).toContain("cannot run programs");
    } finally {
      await factory.dispose();
    }
  }, 180_000);
});
